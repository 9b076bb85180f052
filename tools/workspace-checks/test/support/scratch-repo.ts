import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const ROOT = join(__dirname, '../../../..');
export const NX = join(ROOT, 'node_modules/nx/dist/bin/nx.js');
export const nxEnv = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true', NX_TUI: 'false' };

export interface ProjectNode {
  data: {
    root: string;
    tags?: string[];
    targets: Record<string, { executor?: string; options?: { command?: string } }>;
  };
}

/** The Nx project graph's nodes, as `nx graph --file` writes them. */
export function projectGraph(cwd = ROOT): Record<string, ProjectNode> {
  const dir = mkdtempSync(join(tmpdir(), 'nx-graph-'));
  try {
    execFileSync(process.execPath, [NX, 'graph', `--file=${join(dir, 'graph.json')}`], {
      cwd,
      env: nxEnv,
      stdio: 'pipe',
    });
    return JSON.parse(readFileSync(join(dir, 'graph.json'), 'utf8')).graph.nodes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A throw-away git worktree of HEAD sharing our node_modules, for edits a test must not make here. */
export function scratchRepo(): { dir: string; remove: () => void } {
  const dir = join(mkdtempSync(join(tmpdir(), 'scratch-repo-')), 'repo');
  execFileSync('git', ['worktree', 'add', '--detach', dir, 'HEAD'], { cwd: ROOT, stdio: 'pipe' });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return {
    dir,
    remove: () => {
      execFileSync('git', ['worktree', 'remove', '--force', dir], { cwd: ROOT, stdio: 'pipe' });
      rmSync(join(dir, '..'), { recursive: true, force: true });
    },
  };
}
