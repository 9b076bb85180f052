import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';

// One way to write errors (docs/decisions.md#one-way-to-write-errors): every error-code enum has UPPER_SNAKE
// keys (its values are the codes themselves and never change); each domain lib's `<name>.errors.ts` holds
// one error class whose kind comes from a compiler-checked KIND table, and one exported `<Name>Errors` object
// of factories that word each failure once. Nothing else constructs that class.

const root = join(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const sources = (): string[] =>
  ['apps', 'libs', 'tools'].flatMap((dir) => sourceFiles(join(root, dir))).map((file) => relative(root, file));

const read = (file: string): string => readFileSync(join(root, file), 'utf8');

/** `[enum name, key]` of every member of every `enum ...ErrorCode`. */
function errorEnumKeys(text: string): [string, string][] {
  return [...text.matchAll(/enum (\w*ErrorCode) \{([^}]*)\}/g)].flatMap(([, name, body]) =>
    [...body.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '').matchAll(/^\s*([A-Za-z_$][\w$]*)\s*=/gm)].map(
      ([, key]): [string, string] => [name, key],
    ),
  );
}

const UPPER_SNAKE = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

describe('error style', () => {
  const domainErrorFiles = sources().filter((file) => /^libs\/[\w-]+\/src\/lib\/[\w-]+\.errors\.ts$/.test(file));

  it('finds every domain lib errors file', () => {
    expect(domainErrorFiles.length).toBeGreaterThanOrEqual(8);
  });

  it('writes every error-code enum key in UPPER_SNAKE', () => {
    const all = sources()
      .filter((file) => !file.endsWith('.d.ts'))
      .flatMap((file) => errorEnumKeys(read(file)).map(([name, key]) => `${file} ${name}.${key}`));
    expect(all.length).toBeGreaterThan(50);
    expect(all.filter((entry) => !UPPER_SNAKE.test(entry.split('.').pop() ?? ''))).toEqual([]);
  });

  it('recognises another casing (the check itself)', () => {
    const keys = errorEnumKeys("export enum XErrorCode {\n  NotFound = 'NOT_FOUND',\n  GONE = 'GONE',\n}");
    expect(keys.map(([, key]) => UPPER_SNAKE.test(key))).toEqual([false, true]);
  });

  it.each(domainErrorFiles.map((file) => [file]))('%s: one class, a KIND table, one factories object', (file) => {
    const text = read(file);
    const classes = [...text.matchAll(/export class (\w+Error) extends AppError/g)].map(([, name]) => name);
    expect(classes).toHaveLength(1);
    const errorClass = classes[0];
    const domain = errorClass.replace(/Error$/, '');
    expect(text).toMatch(new RegExp(`enum ${domain}ErrorCode \\{`));
    expect(text).toMatch(new RegExp(`const KIND: Readonly<Record<${domain}ErrorCode, AppErrorKind>> = \\{`));
    expect(text).toMatch(new RegExp(`super\\(code, KIND\\[code\\]`));
    expect(text).toMatch(new RegExp(`export const ${domain}Errors = \\{`));
    expect(text).not.toMatch(/^\s*static /m);
    const exportedFunctions = [...text.matchAll(/^export (?:const (\w+) = \(|function (\w+)\()/gm)].map(
      ([, arrow, fn]) => arrow ?? fn,
    );
    expect(exportedFunctions).toEqual([]);
  });

  it('constructs a domain error only in its errors file (and in specs)', () => {
    const classes = domainErrorFiles.flatMap((file) =>
      [...read(file).matchAll(/export class (\w+Error) extends AppError/g)].map(([, name]) => ({ name, file })),
    );
    const outside = sources()
      .filter((file) => !/\.(spec|int-spec|e2e-spec)\.ts$/.test(file) && basename(file) !== 'error-style.e2e-spec.ts')
      .flatMap((file) => {
        const text = read(file);
        return classes
          .filter(({ name, file: home }) => file !== home && text.includes(`new ${name}(`))
          .map(({ name }) => `${file}: new ${name}(`);
      });
    expect(outside).toEqual([]);
  });
});
