// What `npm start` / `npm run dev` run: the services named on the command line (all by default), each with its
// port, public URL and environment. Every variable read here is in the README's launcher table.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './infra.mjs';

/** Every service of the workspace, in one list (`tools/services.json`, extended by `nx g @acme/tools:service`). */
export const SERVICES = JSON.parse(readFileSync(join(ROOT, 'tools/services.json'), 'utf8'));

/** `MANAGEMENT_API`, for `MANAGEMENT_API_PORT` and `MANAGEMENT_API_PUBLIC_URL`. */
const envPrefix = (name) => name.toUpperCase().replace(/-/g, '_');

/** The services named in `argv` (none named: all), or an error naming the unknown ones and the known ones. */
export function selectServices(argv, env = process.env) {
  const names = argv.filter((arg) => !arg.startsWith('-'));
  const unknown = names.filter((name) => !SERVICES.some((s) => s.name === name));
  if (unknown.length > 0)
    throw new Error(`unknown service ${unknown.join(', ')}; known: ${SERVICES.map((s) => s.name).join(', ')}`);
  const chosen = names.length === 0 ? SERVICES : SERVICES.filter((s) => names.includes(s.name));
  // One PUBLIC_URL cannot be the origin of several services: it applies when exactly one is started.
  if (env.PUBLIC_URL && chosen.length > 1)
    throw new Error(
      `PUBLIC_URL names one origin, but ${chosen.length} services are starting: start one ` +
        `(npm start -- <service>) or set <SERVICE>_PUBLIC_URL, e.g. ${envPrefix(chosen[0].name)}_PUBLIC_URL`,
    );
  return chosen.map((service) => {
    const prefix = envPrefix(service.name);
    const port = Number(env[`${prefix}_PORT`] ?? service.port);
    const url = `http://127.0.0.1:${port}`;
    const publicUrl = env[`${prefix}_PUBLIC_URL`] ?? env.PUBLIC_URL ?? url;
    // What a local run sets for the service (e.g. management-api's default audience, so Swagger UI's client
    // credentials flow works); the caller's own environment wins.
    const devEnv = Object.fromEntries(
      Object.entries(service.devEnv ?? {})
        .filter(([name]) => env[name] === undefined)
        .map(([name, value]) => [name, value.replaceAll('{PUBLIC_URL}', publicUrl.replace(/\/+$/, ''))]),
    );
    return { ...service, port, url, publicUrl, devEnv };
  });
}
