import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  Extra,
  forbiddenIndexExports,
  importCycles,
  Project,
  projectOf,
  rel,
  ROOT,
  Sources,
  tagValue,
} from './support/source-graph';

// File-level rules lint cannot see (a relative path into another project, a type-only loop, what an index
// re-exports). Each rule is shown failing on a deliberate violation, given as an extra in-memory file.

/** tools/** reaching into apps/** by relative path or alias (tools load apps by path at run time only). */
function toolToAppImports(extra: Extra = {}): string[] {
  const sources = new Sources(extra);
  return sources.files
    .filter((file) => rel(file).startsWith('tools/'))
    .flatMap((file) =>
      sources
        .specifiers(file)
        .filter((specifier) => rel(sources.resolve(file, specifier) ?? ROOT).startsWith('apps/'))
        .map((specifier) => `${rel(file)} -> ${specifier}`),
    );
}

/** An import of a schema lib (type:schema) from an app or lib of another service. */
function crossServiceSchemaImports(extra: Extra = {}): string[] {
  const sources = new Sources(extra);
  const cache = new Map<string, Project | null>();
  return [...sources.edges()].flatMap(([file, targets]) => {
    if (!/^(apps|libs)\//.test(rel(file))) return [];
    const importer = projectOf(file, cache);
    return targets
      .map((target) => projectOf(target, cache))
      .filter((target): target is Project => tagValue(target, 'type') === 'schema')
      .filter((target) => tagValue(target, 'scope') !== tagValue(importer, 'scope'))
      .map((target) => `${rel(file)} (scope:${tagValue(importer, 'scope')}) -> ${target.name}`);
  });
}

/**
 * src/index.ts of every library under libs/ but the testing libs (type:testing), whose whole surface is for
 * tests; secondary entries such as src/testing are not indexes.
 */
function libIndexes(dir = join(ROOT, 'libs')): string[] {
  const entries = readdirSync(dir, { withFileTypes: true });
  if (entries.some((entry) => entry.name === 'project.json')) {
    const index = join(dir, 'src/index.ts');
    return tagValue(projectOf(index), 'type') === 'testing' ? [] : [rel(index)];
  }
  return entries
    .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
    .flatMap((entry) => libIndexes(join(dir, entry.name)));
}

describe('workspace structure (file level)', () => {
  it('has no tool importing an app', () => {
    expect(toolToAppImports()).toEqual([]);
  });

  it('refuses a tool importing an app by relative path, type-only or not', () => {
    expect(
      toolToAppImports({
        'tools/scripts/wrong-way.ts': "import type { RumEnv } from '../../apps/rum-ingestion/src/config/env';\n",
        'tools/bench/wrong-way.ts': "export { AppModule } from '../../apps/community-api/src/app.module';\n",
      }),
    ).toEqual([
      'tools/bench/wrong-way.ts -> ../../apps/community-api/src/app.module',
      'tools/scripts/wrong-way.ts -> ../../apps/rum-ingestion/src/config/env',
    ]);
  });

  it('has no import cycle between files, type-only imports included', () => {
    expect(importCycles(new Sources().edges())).toEqual([]);
  });

  it('finds a type-only cycle', () => {
    const cycles = importCycles(
      new Sources({
        'libs/events/src/lib/cycle-a.ts': "import type { B } from './cycle-b';\nexport type A = { b?: B };\n",
        'libs/events/src/lib/cycle-b.ts': "import type { A } from './cycle-a';\nexport type B = { a?: A };\n",
      }).edges(),
    );
    expect(cycles).toEqual([['libs/events/src/lib/cycle-a.ts', 'libs/events/src/lib/cycle-b.ts']]);
  });

  it("has no app or lib importing another service's schema", () => {
    expect(crossServiceSchemaImports()).toEqual([]);
  });

  it("refuses a lib importing another service's schema", () => {
    expect(
      crossServiceSchemaImports({
        'libs/policies/src/lib/wrong-way.ts': "export { COMMUNITY_SCHEMA } from '@acme/community-schema';\n",
      }),
    ).toEqual(['libs/policies/src/lib/wrong-way.ts (scope:management) -> community-schema']);
  });

  describe('lib indexes', () => {
    const indexes = libIndexes();

    it('are found for every domain and platform lib', () => {
      expect(indexes).toEqual(expect.arrayContaining(['libs/oauth/src/index.ts', 'libs/platform/errors/src/index.ts']));
      expect(indexes.length).toBeGreaterThanOrEqual(20);
    });

    it('export no repository and no test code', () => {
      expect(forbiddenIndexExports(indexes)).toEqual([]);
    }, 120000);

    it('refuse a re-exported repository or test oracle', () => {
      const found = forbiddenIndexExports(['libs/oauth/src/index.ts', 'libs/rum/src/index.ts'], {
        'libs/oauth/src/index.ts': "export * from './lib/repositories';\n",
        'libs/rum/src/index.ts': "export { compileRuleSet } from './lib/matcher';\nexport * from './testing';\n",
      });
      expect(found).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ name: 'ClientRepository', why: 'repository' }),
          expect.objectContaining({ name: 'interpretRuleSet', why: 'test code' }),
        ]),
      );
      expect(found.map((entry) => entry.name)).not.toContain('compileRuleSet');
    }, 120000);
  });
});
