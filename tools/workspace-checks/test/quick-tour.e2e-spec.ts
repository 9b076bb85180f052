import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, freePort, ROOT } from './support/built-service';
import { dropDatabase, launcherEnv, RunningLauncher, startLauncher } from './support/launcher';

const SERVICES = ['management-api', 'community-api', 'rum-ingestion', 'migration-worker'];

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
  let launcher: RunningLauncher | undefined;

  afterAll(async () => {
    await launcher?.stop();
    await dropDatabase(database);
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
    const env = launcherEnv({ ...creds, DEV_DATABASE: database });
    SERVICES.forEach((name, i) => (env[`${name.toUpperCase().replace(/-/g, '_')}_PORT`] = String(ports[i])));
    launcher = await startLauncher([], env);
    expect(launcher.stdout().match(/ healthy$/gm)).toHaveLength(4);

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
