import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ensureBuilt, ROOT } from './support/built-service';

// dist/apps/<app>/main.js starts the bundle through a V8 code cache (tools/build/code-cache-main.cjs,
// docs/decisions.md#start-up-bundle-and-code-cache); the image writes it at build time with --write-code-cache.
const APP = 'rum-ingestion';
const BUILT = join(ROOT, 'dist/apps', APP);
let DIST = '';
const FLAGS = ['--max-semi-space-size=32', '--expose-gc'];

/** Whether V8 takes the cache file for app.js under `flags` (what main.js checks with `cachedDataRejected`). */
function accepted(file: string, flags: string[]): string {
  const script =
    "const fs = require('node:fs'), vm = require('node:vm');" +
    `const s = new vm.Script(fs.readFileSync(${JSON.stringify(join(DIST, 'app.js'))}, 'utf8'), ` +
    `{ filename: ${JSON.stringify(join(DIST, 'app.js'))}, cachedData: fs.readFileSync(${JSON.stringify(file)}) });` +
    "process.stdout.write(s.cachedDataRejected ? 'rejected' : 'accepted');";
  return spawnSync(process.execPath, [...flags, '-e', script], { encoding: 'utf8' }).stdout;
}

describe('the bundle code cache', () => {
  beforeAll(() => {
    ensureBuilt([APP]);
    // A copy of its own: other files' builds rewrite dist/apps (webpack cleans it), and their services write caches
    // there. Under the workspace root, so the bundle's externals resolve from node_modules as in dist.
    mkdirSync(join(ROOT, 'tmp'), { recursive: true });
    DIST = mkdtempSync(join(ROOT, 'tmp', 'code-cache-'));
    for (const file of ['main.js', 'app.js']) copyFileSync(join(BUILT, file), join(DIST, file));
  }, 300000);

  it('main.js --write-code-cache writes one without starting the service, and V8 takes it under the same flags', () => {
    // No DATABASE_URL, no PORT: nothing may start or connect, as in the image's build.
    const run = spawnSync(process.execPath, [...FLAGS, join(DIST, 'main.js'), '--write-code-cache'], {
      cwd: DIST,
      env: { PATH: process.env['PATH'] ?? '' },
      encoding: 'utf8',
      timeout: 60000,
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    const files = readdirSync(join(DIST, '.code-cache'));
    expect(files).toHaveLength(1);
    const file = join(DIST, '.code-cache', files[0]);
    expect(accepted(file, FLAGS)).toBe('accepted');
    // Other flags would refuse it: each flag set has a file of its own (the name carries a hash of the flags).
    expect(accepted(file, [])).toBe('rejected');
  }, 120000);

  afterAll(() => {
    if (DIST) rmSync(DIST, { recursive: true, force: true });
  });
});
