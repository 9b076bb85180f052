import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { diffDocuments } from './diff';
import { toMarkdown } from './format';
import { parseOpenApi } from './load';

const run = promisify(execFile);

/** In a commit message between the base and HEAD: `[breaking-api]` (every app) or `[breaking-api:<app>]`. */
export const BREAKING_MARKER = '[breaking-api]';
const approves = (messages: string, app: string) =>
  messages.includes(BREAKING_MARKER) || messages.includes(`[breaking-api:${app}]`);

export interface CiCheckOptions {
  root: string;
  apps: string[];
  /** The fresh export of one app, serialized as the committed file is. */
  exportApp: (app: string) => Promise<string>;
  /** Where main's contracts come from; default: merge-base of HEAD and main (HEAD~1 when HEAD is on main). */
  baseRef?: string;
  log: (text: string) => void;
}

async function git(root: string, args: string[]): Promise<string | undefined> {
  try {
    return (await run('git', args, { cwd: root, maxBuffer: 256 * 1024 * 1024 })).stdout;
  } catch {
    return undefined;
  }
}

async function resolveBase(root: string, explicit?: string): Promise<string | undefined> {
  if (explicit) return (await git(root, ['rev-parse', '--verify', `${explicit}^{commit}`]))?.trim();
  const head = (await git(root, ['rev-parse', 'HEAD']))?.trim();
  const base = (await git(root, ['merge-base', 'HEAD', 'main']))?.trim();
  if (!head || !base) return undefined;
  // On main itself the merge-base is HEAD: check the last commit against its parent.
  return base === head ? (await git(root, ['rev-parse', '--verify', 'HEAD~1']))?.trim() : base;
}

/**
 * The contract guard: every committed apps/<app>/openapi.json must equal a fresh export, and the change log
 * against main's copy must hold no breaking change unless a commit since the base carries the marker.
 */
export async function runCiCheck(options: CiCheckOptions): Promise<boolean> {
  const { root, log } = options;
  let ok = true;
  const base = await resolveBase(root, options.baseRef);
  const messages = base ? ((await git(root, ['log', '--format=%B', `${base}..HEAD`])) ?? '') : '';
  if (!base)
    log(`warning: no base commit found (${options.baseRef ?? 'merge-base with main'}); only staleness is checked\n`);
  for (const app of options.apps) {
    const file = path.join(root, 'apps', app, 'openapi.json');
    const relative = `apps/${app}/openapi.json`;
    let fresh: string;
    try {
      fresh = await options.exportApp(app);
    } catch (error) {
      ok = false;
      const detail = (error as { stderr?: string }).stderr || (error as Error).message;
      log(`FAIL ${relative}: the export failed (\`nx run ${app}:openapi\`):\n${String(detail).trim()}\n`);
      continue;
    }
    const committed = existsSync(file) ? await readFile(file, 'utf8') : undefined;
    if (committed !== fresh) {
      ok = false;
      log(
        `FAIL ${relative} is ${committed === undefined ? 'missing' : 'stale'}: run \`npm run openapi:export\` and commit it\n`,
      );
      if (committed !== undefined) {
        const changes = diffDocuments(await parseOpenApi(committed, file), await parseOpenApi(fresh, file));
        log(toMarkdown(changes, { from: 'committed', to: 'fresh export' }));
      }
      continue;
    }
    const previous = base ? await git(root, ['show', `${base}:${relative}`]) : undefined;
    if (!base || previous === undefined) {
      log(`ok   ${relative} is up to date${base ? ' (new contract, nothing to compare on the base)' : ''}\n`);
      continue;
    }
    const changes = diffDocuments(await parseOpenApi(previous, file), await parseOpenApi(committed, file));
    const breaking = changes.filter((c) => c.group === 'breaking');
    log(
      `${breaking.length > 0 && !approves(messages, app) ? 'FAIL' : 'ok  '} ${relative} is up to date; changes since ${base.slice(0, 12)}:\n`,
    );
    log(toMarkdown(changes, { from: base.slice(0, 12), to: 'HEAD' }));
    if (breaking.length > 0) {
      if (approves(messages, app))
        log(`${breaking.length} breaking change(s) accepted by a ${BREAKING_MARKER} commit marker\n`);
      else {
        ok = false;
        log(
          `${breaking.length} breaking change(s): make them compatible, or say you mean them with ${BREAKING_MARKER} (or [breaking-api:${app}]) in a commit message\n`,
        );
      }
    }
  }
  return ok;
}

/** Apps that declare the `openapi` target. */
export function appsWithContracts(root: string): string[] {
  return readdirSync(path.join(root, 'apps')).filter((app) => {
    const project = path.join(root, 'apps', app, 'project.json');
    return existsSync(project) && /"openapi"\s*:/.test(readFileSync(project, 'utf8'));
  });
}

/** Each export in its own process, as the `openapi` target runs it, so apps cannot disturb each other. */
async function exportInChildProcess(root: string, app: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'openapi-'));
  try {
    const out = path.join(dir, 'openapi.json');
    await run(
      process.execPath,
      ['-r', '@swc-node/register', path.join(__dirname, 'export-openapi.ts'), app, '--out', out],
      { cwd: root },
    );
    return await readFile(out, 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const root = path.resolve(__dirname, '../../..');
  const baseArg = process.argv.indexOf('--base');
  runCiCheck({
    root,
    apps: appsWithContracts(root),
    exportApp: (app) => exportInChildProcess(root, app),
    baseRef: baseArg >= 0 ? process.argv[baseArg + 1] : process.env['OPENAPI_BASE_REF'],
    log: (text) => process.stdout.write(text),
  }).then(
    (ok) => {
      process.stdout.write(ok ? 'openapi:check passed\n' : 'openapi:check failed\n');
      process.exitCode = ok ? 0 : 1;
    },
    (error: unknown) => {
      process.stderr.write(`openapi:check: ${(error as Error).stack ?? String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
