import { createProjectGraphAsync, ProjectGraph } from '@nx/devkit';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '../../..');

function typeOf(graph: ProjectGraph, name: string): string | undefined {
  return graph.nodes[name]?.data.tags?.find((tag) => tag.startsWith('type:'));
}

describe('workspace layering', () => {
  let graph: ProjectGraph;
  beforeAll(async () => {
    graph = await createProjectGraphAsync({ exitOnError: false });
  }, 120000);

  it('has dependencies only from apps to domain libs to platform libs', () => {
    const allowed: Record<string, string[]> = {
      'type:app': ['type:domain', 'type:schema', 'type:platform', 'type:testing'],
      'type:domain': ['type:domain', 'type:schema', 'type:platform', 'type:testing'],
      'type:schema': [],
      'type:platform': ['type:platform', 'type:testing'],
      'type:testing': ['type:platform', 'type:testing'],
      'type:tool': ['type:domain', 'type:schema', 'type:platform', 'type:testing', 'type:tool'],
    };
    const wrong = Object.entries(graph.dependencies).flatMap(([source, deps]) =>
      deps
        .filter((dep) => graph.nodes[dep.target])
        .filter((dep) => !allowed[typeOf(graph, source) ?? '']?.includes(typeOf(graph, dep.target) ?? ''))
        .map((dep) => `${source} -> ${dep.target}`),
    );
    expect(wrong).toEqual([]);
  });

  it('has no dependency cycle', () => {
    const state = new Map<string, 'visiting' | 'done'>();
    const cycles: string[] = [];
    const visit = (node: string, path: string[]) => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'visiting') return void cycles.push([...path, node].join(' -> '));
      state.set(node, 'visiting');
      // Edges into the testing lib come from spec files only (lint enforces that), so they are not layering.
      for (const dep of graph.dependencies[node] ?? [])
        if (graph.nodes[dep.target] && typeOf(graph, dep.target) !== 'type:testing') visit(dep.target, [...path, node]);
      state.set(node, 'done');
    };
    Object.keys(graph.nodes).forEach((node) => visit(node, []));
    expect(cycles).toEqual([]);
  });

  /** Lints a one-import file given on stdin as if it were `file`. */
  const lint = (file: string, from: string) =>
    spawnSync(
      process.execPath,
      [join(root, 'node_modules/eslint/bin/eslint.js'), '--stdin', '--stdin-filename', join(root, file)],
      {
        cwd: root,
        input: `import * as imported from '${from}';\nexport const x = imported;\n`,
        encoding: 'utf8',
      },
    );

  it('fails lint on a deliberate wrong-way import (platform -> domain, domain -> other scope)', () => {
    for (const file of ['libs/platform/errors/src/lib/wrong-way.ts', 'libs/rum/src/lib/wrong-way.ts']) {
      const result = lint(file, '@acme/policies');
      expect(result.status).toBe(1);
      expect(result.stdout).toContain('@nx/enforce-module-boundaries');
    }
    expect(lint('libs/policies/src/lib/right-way.ts', '@acme/platform-errors').status).toBe(0);
  }, 120000);

  it("fails lint on another service's schema lib, and on a schema lib importing any project", () => {
    for (const [file, from] of [
      ['libs/policies/src/lib/wrong-way.ts', '@acme/community-schema'],
      ['libs/schemas/community/src/wrong-way.ts', '@acme/platform-errors'],
    ]) {
      const result = lint(file, from);
      expect(result.status).toBe(1);
      expect(result.stdout).toContain('@nx/enforce-module-boundaries');
    }
    expect(lint('libs/policies/src/lib/right-way.ts', '@acme/management-schema').status).toBe(0);
  }, 120000);
});
