import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// One DTO file rule in the apps (docs/decisions.md#one-dto-file-rule): request and response classes live in the
// `dto/` folder beside the code that uses them, in `<name>.request.dto.ts` (what the validation pipe checks:
// bodies, queries, params and their nested parts) or `<name>.response.dto.ts` (what a route answers: bodies,
// error bodies, envelopes, and their presenters). config/env.ts validates the environment, not a request.

const root = join(__dirname, '../../..');
const appsDir = join(root, 'apps');

interface Source {
  file: string;
  text: string;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('spec.ts') ? [path] : [];
  });
}

const appSources = (): Source[] =>
  readdirSync(appsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((app) => sourceFiles(join(appsDir, app.name, 'src')))
    .map((file) => ({ file: relative(root, file), text: readFileSync(file, 'utf8') }));

const DTO_DECORATOR =
  /@(ApiProperty|ApiPropertyOptional|IsString|IsOptional|IsInt|IsIn|IsUUID|Matches|MaxLength|ValidateNested)\(/;
const DTO_FILE = /^apps\/[^/]+\/src\/(.+\/)?dto\/[a-z0-9-]+\.(request|response)\.dto\.ts$/;

/** Each file that breaks the rule, with what is wrong. */
function dtoFileProblems(sources: Source[]): string[] {
  return sources.flatMap(({ file, text }) => {
    if (/\/src\/config\/env\.ts$/.test(file)) return [];
    if (file.endsWith('.dto.ts') && !DTO_FILE.test(file))
      return [`${file}: a DTO file is dto/<name>.request.dto.ts or dto/<name>.response.dto.ts`];
    if (!file.endsWith('.dto.ts') && DTO_DECORATOR.test(text))
      return [`${file}: declares request/response properties outside a dto/*.(request|response).dto.ts file`];
    if (/\.(requests?|responses?|body|query)\.ts$/.test(file))
      return [`${file}: request and response files end in .request.dto.ts / .response.dto.ts`];
    if (file.endsWith('.response.dto.ts') && /from 'class-validator'/.test(text))
      return [`${file}: a response DTO validates nothing (class-validator belongs in .request.dto.ts)`];
    return [];
  });
}

describe('DTO files in the apps', () => {
  it('follow the one rule: dto/<name>.request.dto.ts and dto/<name>.response.dto.ts', () => {
    expect(dtoFileProblems(appSources())).toEqual([]);
  });

  it('finds the files it should look at', () => {
    const dtoFiles = appSources().filter(({ file }) => DTO_FILE.test(file));
    expect(dtoFiles.length).toBeGreaterThanOrEqual(25);
  });

  it('refuses each other shape and place', () => {
    const property = "import { ApiProperty } from '@nestjs/swagger';\nexport class A { @ApiProperty() a!: string; }\n";
    const validated = "import { IsString } from 'class-validator';\nexport class B { @IsString() b!: string; }\n";
    expect(
      dtoFileProblems([
        { file: 'apps/demo-api/src/items/items.dto.ts', text: property },
        { file: 'apps/demo-api/src/items/dto/items.dto.ts', text: property },
        { file: 'apps/demo-api/src/items/item.request.dto.ts', text: validated },
        { file: 'apps/demo-api/src/items/items.controller.ts', text: property },
        { file: 'apps/demo-api/src/items/item.body.ts', text: 'export type Body = string;\n' },
        { file: 'apps/demo-api/src/items/dto/item.response.dto.ts', text: validated },
        { file: 'apps/demo-api/src/items/dto/item.request.dto.ts', text: validated },
        { file: 'apps/demo-api/src/items/dto/item.response.dto.ts', text: property },
      ]).map((problem) => problem.split(':')[0]),
    ).toEqual([
      'apps/demo-api/src/items/items.dto.ts',
      'apps/demo-api/src/items/dto/items.dto.ts',
      'apps/demo-api/src/items/item.request.dto.ts',
      'apps/demo-api/src/items/items.controller.ts',
      'apps/demo-api/src/items/item.body.ts',
      'apps/demo-api/src/items/dto/item.response.dto.ts',
    ]);
  });
});
