import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';

/**
 * oasdiff's `checker/` and `data/` folders, from a bare git directory (the `fetch` tool's mirror) or a checkout.
 * A bare repository is written out to a temporary folder once (our loader reads files and follows relative `$ref`s).
 */
export interface OasdiffSource {
  root: string;
  commit: string;
  /** The folder was written out from a bare repository: remove it when done. */
  temporary?: boolean;
}

const git = (gitDir: string, args: string[], input?: string) =>
  execFileSync('git', ['--git-dir', gitDir, ...args], { input, maxBuffer: 256 * 1024 * 1024 });

export function openOasdiff(location: string, revision = 'HEAD'): OasdiffSource {
  if (existsSync(path.join(location, 'checker'))) {
    const commit = existsSync(path.join(location, '.git'))
      ? git(path.join(location, '.git'), ['rev-parse', revision]).toString().trim()
      : 'unknown (plain folder)';
    return { root: location, commit };
  }
  const commit = git(location, ['rev-parse', `${revision}^{commit}`])
    .toString()
    .trim();
  const root = mkdtempSync(path.join(tmpdir(), 'oasdiff-'));
  const names = git(location, ['ls-tree', '-r', '--name-only', commit, 'checker', 'data'])
    .toString()
    .split('\n')
    .filter(Boolean);
  // One `cat-file --batch` for every file: `<sha> blob <size>\n<bytes>\n` each.
  const out = git(location, ['cat-file', '--batch'], names.map((name) => `${commit}:${name}\n`).join(''));
  let offset = 0;
  for (const name of names) {
    const eol = out.indexOf(10, offset);
    const header = out.subarray(offset, eol).toString().split(' ');
    const size = Number(header[2]);
    const target = path.join(root, name);
    mkdirSync(path.dirname(target), { recursive: true });
    if (header[1] === 'blob') writeFileSync(target, out.subarray(eol + 1, eol + 1 + size));
    offset = eol + 1 + (header[1] === 'missing' ? 0 : size + 1);
  }
  return { root, commit, temporary: true };
}

export const readText = (source: OasdiffSource, file: string) => readFileSync(path.join(source.root, file), 'utf8');
export const checkerFiles = (source: OasdiffSource, tests: boolean) =>
  readdirSync(path.join(source.root, 'checker'))
    .filter((name) => name.endsWith('.go') && name.endsWith('_test.go') === tests)
    .sort();
