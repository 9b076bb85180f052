import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ensureBuilt, freePort, ROOT } from './support/built-service';

const START = join(ROOT, 'tools/launcher/start.mjs');
const serverUrl = new URL(process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres');

/** The launcher as a fresh machine runs it: no DATABASE_URL, so it finds the server itself and picks a database. */
function launcherEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_PRETTY: 'false', ...extra };
  delete env['DATABASE_URL'];
  // Whichever server this run's tests use, the launcher's probes find it first.
  env['LOCAL_PG_PORT'] = env['EMBEDDED_PG_PORT'] = serverUrl.port || '5432';
  return env;
}

/** `select-services` as the launcher calls it, through a child (the launcher is ESM). */
function selectServices(argv: string[], env: Record<string, string>) {
  const script = `import(${JSON.stringify(join(ROOT, 'tools/launcher/services.mjs'))}).then((m) => {
    try { process.stdout.write(JSON.stringify(m.selectServices(${JSON.stringify(argv)}, ${JSON.stringify(env)}))); }
    catch (error) { process.stdout.write(JSON.stringify({ error: error.message })); }
  })`;
  return JSON.parse(spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' }).stdout);
}

async function databaseExists(name: string): Promise<{ exists: boolean; schemas: string[] }> {
  const client = new Client({ connectionString: serverUrl.toString() });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) return { exists: false, schemas: [] };
    const url = new URL(serverUrl.toString());
    url.pathname = `/${name}`;
    const inside = new Client({ connectionString: url.toString() });
    await inside.connect();
    const schemas = await inside.query<{ nspname: string }>("select nspname from pg_namespace where nspname = 'rum'");
    await inside.end();
    return { exists: true, schemas: schemas.rows.map((r) => r.nspname) };
  } finally {
    await client.end();
  }
}

describe('npm start', () => {
  const database = `t_launcher_${process.pid}_${Date.now()}`;
  let launcher: ChildProcess | undefined;

  afterAll(async () => {
    if (launcher && launcher.exitCode === null) {
      launcher.kill('SIGINT');
      const running = launcher;
      await new Promise((resolve) => running.once('exit', resolve));
    }
    const client = new Client({ connectionString: serverUrl.toString() });
    await client.connect();
    await client.query(`drop database if exists "${database}" with (force)`);
    await client.end();
  });

  it('starts only the services named, in a database of its own, and ends its output with the summary', async () => {
    ensureBuilt(['rum-ingestion']);
    const port = await freePort();
    launcher = spawn(process.execPath, [START, 'rum-ingestion'], {
      cwd: ROOT,
      env: launcherEnv({ DEV_DATABASE: database, RUM_INGESTION_PORT: String(port) }),
    });
    let stdout = '';
    let stderr = '';
    launcher.stdout?.on('data', (chunk) => (stdout += chunk));
    launcher.stderr?.on('data', (chunk) => (stderr += chunk));
    const deadline = Date.now() + 180_000;
    while (!stdout.includes('Ctrl-C stops everything.') && Date.now() < deadline && launcher.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 200));
    // A moment for any late line to land after the summary.
    await new Promise((resolve) => setTimeout(resolve, 1000));

    expect(stdout.trimEnd().endsWith('Ctrl-C stops everything.')).toBe(true);
    expect(stdout).toContain(`rum-ingestion     http://127.0.0.1:${port}`);
    expect(stdout).not.toMatch(/management-api|community-api|migration-worker/);
    expect(stdout).toContain(`database ${database}`);
    expect(stdout).toContain('docs/quick-tour.md');
    // Nest's per-route lines are debug now: none at the default level.
    expect(stdout).not.toContain('Mapped {');
    expect(`${stdout}\n${stderr}`).not.toMatch(/\bWARNING\b|DeprecationWarning/);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    expect(await databaseExists(database)).toEqual({ exists: true, schemas: ['rum'] });
  }, 240_000);

  it('refuses an unknown service by name, listing the known ones', () => {
    const run = spawnSync(process.execPath, [START, 'billing-api'], {
      cwd: ROOT,
      env: launcherEnv({}),
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('unknown service billing-api; known: management-api, community-api');
  });

  it('gives PUBLIC_URL to the one service started, and per-service public URLs to several', () => {
    expect(selectServices(['community-api'], { PUBLIC_URL: 'https://community.example' })).toEqual([
      expect.objectContaining({ name: 'community-api', publicUrl: 'https://community.example' }),
    ]);
    const two = selectServices(['management-api', 'community-api'], {
      COMMUNITY_API_PUBLIC_URL: 'https://community.example',
      MANAGEMENT_API_PORT: '4001',
    });
    expect(two.map((s: { publicUrl: string }) => s.publicUrl)).toEqual([
      'http://127.0.0.1:4001',
      'https://community.example',
    ]);
    expect(selectServices([], { PUBLIC_URL: 'https://one.example' }).error).toContain('PUBLIC_URL names one origin');
  });

  it("reads no variable that the README's launcher table does not list", () => {
    const dir = join(ROOT, 'tools/launcher');
    const read = new Set<string>();
    for (const file of readdirSync(dir).filter((f) => /\.(mjs|cjs)$/.test(f)))
      for (const match of readFileSync(join(dir, file), 'utf8').matchAll(/process\.env\.([A-Z_]+)/g))
        read.add(match[1]);
    // Set by the launcher for its own reporter, and the shell's own.
    for (const internal of ['JEST_RESULTS_FILE', 'PATH']) read.delete(internal);
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const table = readme.slice(readme.indexOf('### What the launchers read'), readme.indexOf('## Services'));
    expect([...read].filter((name) => !table.includes(`\`${name}\``))).toEqual([]);
    expect(read.size).toBeGreaterThan(10);
    for (const perService of ['<SERVICE>_PORT', '<SERVICE>_PUBLIC_URL']) expect(table).toContain(perService);
  });
});
