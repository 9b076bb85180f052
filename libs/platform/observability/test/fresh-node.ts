import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

/** The workspace root, where a fresh Node resolves `./libs/...` and the installed packages. */
export const WORKSPACE_ROOT = join(__dirname, '../../../..');

/**
 * Runs `script` in a fresh Node (outside Jest's module registry, so the SDK's require hooks see every module load)
 * from the workspace root with only PATH and `env`; its stdout.
 */
export function inFreshNode(script: string, env: Record<string, string>): string {
  const run = spawnSync(process.execPath, ['-r', '@swc-node/register', '-e', script], {
    cwd: WORKSPACE_ROOT,
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (run.status !== 0) throw new Error(run.stderr);
  return run.stdout;
}
