import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// One DTO file naming rule in the apps: a file declaring request/response classes (class-validator or
// Swagger property decorators) is `<feature>.dto.ts`, or `<feature>.request.dto.ts` / `<feature>.response.dto.ts`
// when a feature splits them. config/env.ts validates the environment, not a request, and is left out.

const root = join(__dirname, '../../..');
const appsDir = join(root, 'apps');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('spec.ts') ? [path] : [];
  });
}

const appSources = (): string[] =>
  readdirSync(appsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((app) => sourceFiles(join(appsDir, app.name, 'src')))
    .map((file) => relative(root, file));

const DTO_DECORATOR =
  /@(ApiProperty|ApiPropertyOptional|IsString|IsOptional|IsInt|IsIn|IsUUID|Matches|MaxLength|ValidateNested)\(/;

describe('DTO file names in the apps', () => {
  it('puts every class with request/response property decorators in a *.dto.ts file', () => {
    const misplaced = appSources()
      .filter((file) => !file.endsWith('.dto.ts') && !/\/src\/config\/env\.ts$/.test(file))
      .filter((file) => DTO_DECORATOR.test(readFileSync(join(root, file), 'utf8')));
    expect(misplaced).toEqual([]);
  });

  it('uses .request.dto.ts / .response.dto.ts, not other request or response suffixes', () => {
    expect(appSources().filter((file) => /\.(requests?|responses?|body|query)\.ts$/.test(file))).toEqual([]);
  });
});
