import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { ensureBuilt, freePort, ROOT } from './support/built-service';

const SERVICES = ['management-api', 'community-api', 'rum-ingestion', 'migration-worker'];
const serverUrl = new URL(process.env['DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres');

interface TourBlock {
  heading: string;
  script: string;
  expected: string[];
}

/** Every ```sh block of docs/quick-tour.md, with the `<!-- expect: a | b -->` note above it. */
function tourBlocks(): TourBlock[] {
  const text = readFileSync(join(ROOT, 'docs/quick-tour.md'), 'utf8');
  const pattern = /<!-- expect: (.*?) -->\n```sh\n([\s\S]*?)```/g;
  return [...text.matchAll(pattern)].map((match) => ({
    heading: [...text.slice(0, match.index).matchAll(/^## (.*)$/gm)].at(-1)?.[1] ?? '',
    expected: (match[1] ?? '').split(' | ').map((s) => s.trim()),
    script: match[2] ?? '',
  }));
}

describe('docs/quick-tour.md', () => {
  const database = `t_tour_${process.pid}_${Date.now()}`;
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

  it('has one block per service besides the set-up, every one with expectations', () => {
    const blocks = tourBlocks();
    expect(blocks.map((b) => b.heading.split(':')[0])).toEqual(['Set-up', ...SERVICES]);
    for (const block of blocks) expect(block.expected.length).toBeGreaterThan(0);
  });

  it("runs every block against npm start's services and prints what each note expects", async () => {
    ensureBuilt(SERVICES);
    const ports = await Promise.all(SERVICES.map(() => freePort()));
    const creds = {
      ADMIN_TOKEN: randomBytes(24).toString('base64url'),
      MANAGEMENT_BOOTSTRAP_CLIENT_ID: 'tour-bootstrap',
      MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: randomBytes(32).toString('base64url'),
    };
    const env: NodeJS.ProcessEnv = { ...process.env, ...creds, LOG_PRETTY: 'false', DEV_DATABASE: database };
    delete env['DATABASE_URL'];
    env['LOCAL_PG_PORT'] = env['EMBEDDED_PG_PORT'] = serverUrl.port || '5432';
    SERVICES.forEach((name, i) => (env[`${name.toUpperCase().replace(/-/g, '_')}_PORT`] = String(ports[i])));
    launcher = spawn(process.execPath, [join(ROOT, 'tools/launcher/start.mjs')], { cwd: ROOT, env });
    let summary = '';
    launcher.stdout?.on('data', (chunk) => (summary += chunk));
    launcher.stderr?.resume();
    const deadline = Date.now() + 180_000;
    while (!summary.includes('Ctrl-C stops everything.') && Date.now() < deadline && launcher.exitCode === null)
      await new Promise((resolve) => setTimeout(resolve, 250));
    expect(summary.match(/ healthy$/gm)).toHaveLength(4);

    const blocks = tourBlocks();
    const script = ['set -euo pipefail', ...blocks.map((b, i) => `echo "::block ${i}::"\n${b.script}`)].join('\n');
    const [m, c, r, w] = ports.map((port) => `http://127.0.0.1:${port}`);
    const run = spawnSync('bash', ['-c', script], {
      cwd: ROOT,
      env: { ...process.env, ...creds, M: m, C: c, R: r, W: w },
      encoding: 'utf8',
      timeout: 120_000,
    });
    // On failure the output so far names the call that failed (curl --fail-with-body prints its body).
    expect({ status: run.status, stderr: run.stderr, stdout: run.stdout }).toEqual({
      status: 0,
      stderr: '',
      stdout: expect.any(String),
    });
    const outputs = run.stdout.split(/^::block \d+::$/m).slice(1);
    expect(outputs).toHaveLength(blocks.length);
    blocks.forEach((block, i) => {
      for (const expected of block.expected)
        expect({ block: block.heading, output: outputs[i] }).toEqual({
          block: block.heading,
          output: expect.stringContaining(expected),
        });
    });
  }, 300_000);
});
