import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import * as ts from 'typescript';

// File-level views of the workspace sources for the structure checks (structure.e2e-spec.ts). Every view takes
// `extra`, files by workspace-relative path that are added or replace what is on disk, so a spec can show
// that a check fails on a deliberate violation without writing into the tree.

export const ROOT = join(__dirname, '../../../..');
const SCANNED = ['apps', 'libs', 'tools'];
const SKIPPED = new Set(['node_modules', 'dist', 'tmp', '.data', 'coverage']);
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

export type Extra = Record<string, string>;
export const rel = (file: string): string => relative(ROOT, file).split(sep).join('/');
const abs = (file: string): string => join(ROOT, file);

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIPPED.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return walk(path);
    return SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

export class Sources {
  readonly files: string[];
  private readonly extra: Map<string, string>;
  private readonly aliases: Map<string, string>;

  constructor(extra: Extra = {}) {
    this.extra = new Map(Object.entries(extra).map(([file, text]) => [abs(file), text]));
    const onDisk = SCANNED.flatMap((dir) => walk(abs(dir)));
    this.files = [...new Set([...onDisk, ...this.extra.keys()])].sort();
    const paths = (JSON.parse(readFileSync(abs('tsconfig.base.json'), 'utf8')).compilerOptions.paths ?? {}) as Record<
      string,
      string[]
    >;
    this.aliases = new Map(Object.entries(paths).map(([alias, [target]]) => [alias, abs(target)]));
  }

  text(file: string): string {
    return this.extra.get(file) ?? readFileSync(file, 'utf8');
  }

  exists(file: string): boolean {
    return this.extra.has(file) || existsSync(file);
  }

  /** Module specifiers of a file: static, type-only, re-exports, import() and require(). */
  specifiers(file: string): string[] {
    return ts.preProcessFile(this.text(file), true, true).importedFiles.map((imported) => imported.fileName);
  }

  /**
   * The workspace file a specifier names, through a relative path or a tsconfig alias; undefined for packages.
   * A relative path that names no file resolves to the path itself, so a reach into apps/ still shows.
   */
  resolve(from: string, specifier: string): string | undefined {
    const base = specifier.startsWith('.') ? join(dirname(from), specifier) : this.aliases.get(specifier);
    if (!base) return undefined;
    const candidates = [base, `${base}.ts`, join(base, 'index.ts')];
    if (/\.(js|mjs|cjs)$/.test(base)) candidates.push(base.replace(/\.(js|mjs|cjs)$/, '.ts'));
    return candidates.find((candidate) => SOURCE.test(candidate) && this.exists(candidate)) ?? base;
  }

  /** Import edges between workspace files (both ends exist). */
  edges(): Map<string, string[]> {
    const known = new Set(this.files);
    return new Map(
      this.files.map((file) => [
        file,
        [
          ...new Set(
            this.specifiers(file)
              .map((specifier) => this.resolve(file, specifier))
              .filter((target): target is string => target !== undefined && known.has(target)),
          ),
        ],
      ]),
    );
  }
}

/** Groups of files that import one another, directly or around a loop (strongly connected components). */
export function importCycles(edges: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  let counter = 0;
  const at = (map: Map<string, number>, file: string): number => map.get(file) ?? Number.POSITIVE_INFINITY;
  const connect = (file: string): void => {
    index.set(file, counter);
    low.set(file, counter);
    counter += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(at(low, file), at(low, next)));
      } else if (onStack.has(next)) low.set(file, Math.min(at(low, file), at(index, next)));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (edges.get(file) ?? []).includes(file)) cycles.push(component.map(rel).sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) connect(file);
  return cycles;
}

export interface Project {
  name: string;
  root: string;
  tags: string[];
}

/** The Nx project owning a file: the nearest folder above it with a project.json. */
export function projectOf(file: string, cache = new Map<string, Project | null>()): Project | undefined {
  let dir = dirname(file);
  const visited: string[] = [];
  while (dir.startsWith(ROOT) && dir !== ROOT) {
    if (cache.has(dir)) break;
    visited.push(dir);
    const config = join(dir, 'project.json');
    if (existsSync(config)) {
      const { name, tags = [] } = JSON.parse(readFileSync(config, 'utf8')) as { name: string; tags?: string[] };
      cache.set(dir, { name, root: rel(dir), tags });
      break;
    }
    dir = dirname(dir);
  }
  const found = cache.get(dir) ?? null;
  for (const seen of visited) cache.set(seen, found);
  return found ?? undefined;
}

export const tagValue = (project: Project | undefined, kind: string): string | undefined =>
  project?.tags.find((tag) => tag.startsWith(`${kind}:`))?.slice(kind.length + 1);

/** What a lib index exports that only a lib's insides or its tests should see. */
export interface ForbiddenExport {
  index: string;
  name: string;
  from: string;
  why: 'repository' | 'test code';
}

const TEST_CODE = /(\/(test|testing)\/|\.(spec|int-spec|e2e-spec)\.ts$|oracle)/;

/** Every lib index's export surface (through its re-exports), checked with the TypeScript checker. */
export function forbiddenIndexExports(indexes: string[], extra: Extra = {}): ForbiddenExport[] {
  const replaced = new Map(Object.entries(extra).map(([file, text]) => [abs(file), text]));
  const configFile = ts.readConfigFile(abs('tsconfig.base.json'), ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(configFile.config, ts.sys, ROOT);
  const host = ts.createCompilerHost({ ...options, noEmit: true });
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError) => {
    const text = replaced.get(fileName);
    return text === undefined
      ? getSourceFile(fileName, languageVersion, onError)
      : ts.createSourceFile(fileName, text, languageVersion, true);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (fileName) => replaced.has(fileName) || fileExists(fileName);
  const readFile = host.readFile.bind(host);
  host.readFile = (fileName) => replaced.get(fileName) ?? readFile(fileName);
  const program = ts.createProgram({ rootNames: indexes.map(abs), options: { ...options, noEmit: true }, host });
  const checker = program.getTypeChecker();
  return indexes.flatMap((index) => {
    const source = program.getSourceFile(abs(index));
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    if (!moduleSymbol) throw new Error(`${index} is not a module`);
    return checker.getExportsOfModule(moduleSymbol).flatMap((exported): ForbiddenExport[] => {
      const typeOnly = exported.declarations?.some((declaration) => ts.isTypeOnlyExportDeclaration(declaration));
      const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const from = rel(symbol.declarations?.[0]?.getSourceFile().fileName ?? '');
      if (TEST_CODE.test(from)) return [{ index, name: exported.name, from, why: 'test code' }];
      const value = (symbol.flags & ts.SymbolFlags.Value) !== 0 && !typeOnly;
      const repository = /\.repository\.ts$/.test(from) || /Repository$/.test(symbol.name);
      return value && repository ? [{ index, name: exported.name, from, why: 'repository' }] : [];
    });
  });
}
