#!/usr/bin/env node
// Scaffolds an Nx project: node tools/scripts/new-project.mjs <lib|app|tool> <dir> <name> [importAlias] --tags a,b
import { mkdirSync, writeFileSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';

const [kind, dir, name, maybeAlias] = process.argv.slice(2);
const alias = maybeAlias?.startsWith('--') ? undefined : maybeAlias;
const tagsArg = process.argv.indexOf('--tags');
const tags = tagsArg > 0 ? process.argv[tagsArg + 1].split(',') : [];
if (!kind || !dir || !name) {
  console.error('usage: new-project.mjs <lib|app|tool> <dir> <name> [alias] --tags type:x,scope:y');
  process.exit(2);
}
const root = process.cwd();
const up = relative(join(root, dir), root) || '.';
const write = (file, text) => {
  const full = join(root, dir, file);
  if (existsSync(full)) return;
  mkdirSync(join(full, '..'), { recursive: true });
  writeFileSync(full, text);
};

const targets = {
  lint: { executor: '@nx/eslint:lint', options: { lintFilePatterns: [`${dir}/**/*.ts`] } },
  typecheck: {}, // the command is nx.json's targetDefaults.typecheck
};
if (kind === 'app') {
  targets.build = {
    executor: 'nx:run-commands',
    outputs: [`{workspaceRoot}/dist/apps/${name}`],
    options: {
      command: `webpack --config ${dir}/webpack.config.cjs && node tools/build/write-app-package.cjs ${name}`,
      cwd: '{workspaceRoot}',
    },
  };
  targets.serve = {
    executor: 'nx:run-commands',
    dependsOn: ['build'],
    options: { command: `node dist/apps/${name}/main.js` },
  };
  write('webpack.config.cjs', `module.exports = require('${up}/tools/build/webpack.base.cjs')('${name}');\n`);
}
write(
  'project.json',
  JSON.stringify(
    {
      name,
      $schema: `${up}/node_modules/nx/schemas/project-schema.json`,
      sourceRoot: `${dir}/src`,
      projectType: kind === 'app' ? 'application' : 'library',
      tags,
      targets,
    },
    null,
    2,
  ) + '\n',
);
write(
  'tsconfig.json',
  JSON.stringify({ extends: `${up}/tsconfig.base.json`, include: ['src/**/*.ts', 'test/**/*.ts'] }, null, 2) + '\n',
);
write(
  'jest.config.cjs',
  `const preset = require('${up}/jest.preset.cjs');\n\nmodule.exports = { ...preset, displayName: '${name}', rootDir: __dirname };\n`,
);
if (kind !== 'app') write('src/index.ts', '');

if (alias) {
  const file = join(root, 'tsconfig.base.json');
  const cfg = JSON.parse(readFileSync(file, 'utf8'));
  cfg.compilerOptions.paths[alias] = [`${dir}/src/index.ts`];
  cfg.compilerOptions.paths = Object.fromEntries(
    Object.entries(cfg.compilerOptions.paths).sort(([a], [b]) => a.localeCompare(b)),
  );
  writeFileSync(file, JSON.stringify(cfg, null, 2) + '\n');
}
console.log(`created ${kind} ${name} at ${dir}`);
// Test targets come from nx.json's targetDefaults: add "test": {} / "test-int": {} / "test-e2e": {} to
// project.json with the first *.spec.ts / *.int-spec.ts / *.e2e-spec.ts (tools/workspace-checks checks it).
