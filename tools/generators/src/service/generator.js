// `nx g @acme/tools:service <name> --port <port> --scope <scope> [--title "Title"] [--dry-run]`: a new service
// wired into every list of services (docs/adding-a-service.md), with its schema lib, a domain lib and an example
// feature (controller, DTOs, service, repository, migration) whose e2e test passes as generated. Everything goes
// through Nx's Tree, so --dry-run shows the files and writes none.
const {
  addProjectConfiguration,
  formatFiles,
  generateFiles,
  joinPathFragments,
  names,
  readJson,
  updateJson,
} = require('@nx/devkit');

const FEATURE = 'notes';
const kebab = /^[a-z][a-z0-9-]*$/;

function normalize(tree, options) {
  const { name } = options;
  const port = Number(options.port);
  if (!kebab.test(name)) throw new Error(`service name "${name}" must be kebab-case`);
  const scope = options.scope ?? name.replace(/-api$/, '');
  if (!kebab.test(scope)) throw new Error(`scope "${scope}" must be kebab-case`);
  const services = readJson(tree, 'tools/services.json');
  if (services.some((s) => s.name === name)) throw new Error(`${name} exists already`);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error('--port must be a port number');
  if (services.some((s) => s.port === port)) throw new Error(`port ${port} is taken`);
  const title =
    options.title ??
    name
      .split('-')
      .map((w) => w[0].toUpperCase() + w.slice(1))
      .join(' ');
  return {
    name,
    port,
    scope,
    title,
    services,
    identifier: names(name).propertyName,
    schema: name.replace(/-/g, '_'),
    lib: `libs/${scope}`,
    alias: `@acme/${scope}`,
    schemaLib: `libs/schemas/${scope}`,
    schemaAlias: `@acme/${scope}-schema`,
    scopeConstant: scope.toUpperCase().replace(/-/g, '_'),
    Domain: names(scope).className,
    scopeProperty: names(scope).propertyName,
    feature: FEATURE,
    Feature: names(FEATURE).className,
    FEATURE_CODE: FEATURE.toUpperCase(),
  };
}

function addApp(tree, o) {
  const root = `apps/${o.name}`;
  addProjectConfiguration(tree, o.name, {
    root,
    sourceRoot: `${root}/src`,
    projectType: 'application',
    tags: ['type:app', `scope:${o.scope}`],
    targets: {
      lint: { executor: '@nx/eslint:lint', options: { lintFilePatterns: [`${root}/**/*.ts`] } },
      typecheck: {},
      build: {
        executor: 'nx:run-commands',
        outputs: [`{workspaceRoot}/dist/apps/${o.name}`],
        options: {
          command: `webpack --config ${root}/webpack.config.cjs && node tools/build/write-app-package.cjs ${o.name}`,
          cwd: '{workspaceRoot}',
        },
      },
      serve: {
        executor: 'nx:run-commands',
        dependsOn: ['build'],
        options: { command: `node dist/apps/${o.name}/main.js` },
      },
      openapi: {
        executor: 'nx:run-commands',
        cache: false,
        outputs: ['{projectRoot}/openapi.json'],
        options: {
          command: `node -r @swc-node/register tools/api-changelog/src/export-openapi.ts ${o.name}`,
          cwd: '{workspaceRoot}',
        },
      },
      'test-e2e': {},
    },
  });
  generateFiles(tree, joinPathFragments(__dirname, 'files/app'), root, { ...o, tmpl: '' });
}

function addLib(tree, o) {
  if (tree.exists(`${o.lib}/project.json`)) throw new Error(`${o.lib} exists already`);
  addProjectConfiguration(tree, o.scope, {
    root: o.lib,
    sourceRoot: `${o.lib}/src`,
    projectType: 'library',
    tags: ['type:domain', `scope:${o.scope}`],
    targets: {
      lint: { executor: '@nx/eslint:lint', options: { lintFilePatterns: [`${o.lib}/**/*.ts`] } },
      typecheck: {},
    },
  });
  generateFiles(tree, joinPathFragments(__dirname, 'files/lib'), o.lib, { ...o, tmpl: '' });
  updateJson(tree, 'tsconfig.base.json', (config) => {
    const paths = {
      ...config.compilerOptions.paths,
      [o.alias]: [`${o.lib}/src/index.ts`],
      [o.schemaAlias]: [`${o.schemaLib}/src/index.ts`],
    };
    config.compilerOptions.paths = Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b)));
    return config;
  });
}

/** The service's schema lib (docs/decisions.md, Each service names its schema in one place). */
function addSchemaLib(tree, o) {
  if (tree.exists(`${o.schemaLib}/project.json`)) throw new Error(`${o.schemaLib} exists already`);
  addProjectConfiguration(tree, `${o.scope}-schema`, {
    root: o.schemaLib,
    sourceRoot: `${o.schemaLib}/src`,
    projectType: 'library',
    tags: ['type:schema', `scope:${o.scope}`],
    targets: {
      lint: { executor: '@nx/eslint:lint', options: { lintFilePatterns: [`${o.schemaLib}/**/*.ts`] } },
      typecheck: {},
    },
  });
  generateFiles(tree, joinPathFragments(__dirname, 'files/schema'), o.schemaLib, { ...o, tmpl: '' });
}

/** tools/services.json (npm start, workspace checks, benches), the compose file, the scope's lint rule, docs. */
function addToLists(tree, o) {
  const line = (s) =>
    `  { ${Object.entries(s)
      .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
      .join(', ')} }`;
  const services = [...o.services, { name: o.name, port: o.port, scope: o.scope }];
  tree.write('tools/services.json', `[\n${services.map(line).join(',\n')}\n]\n`);

  const compose = tree.read('docker/docker-compose.yml', 'utf8');
  const block = [
    '',
    `  ${o.name}:`,
    '    <<: *service',
    `    build: { context: .., dockerfile: docker/Dockerfile, args: { APP: ${o.name}, PORT: ${o.port} } }`,
    `    environment: { <<: *env, PORT: ${o.port} }`,
    `    ports: ["${o.port}:${o.port}"]`,
    '',
  ].join('\n');
  tree.write('docker/docker-compose.yml', compose.replace(/\nvolumes:\n/, `${block}\nvolumes:\n`));

  addKubernetesManifests(tree, o);

  const eslint = tree.read('eslint.config.mjs', 'utf8');
  if (!eslint.includes(`'scope:${o.scope}'`)) {
    const rule = `{ sourceTag: 'scope:${o.scope}', onlyDependOnLibsWithTags: ['scope:${o.scope}', 'scope:shared'] },`;
    const anchor = eslint.match(/\n(\s*)\{ sourceTag: 'scope:migration'[^\n]*\n/);
    if (!anchor) throw new Error('eslint.config.mjs: no scope rule to add beside');
    tree.write('eslint.config.mjs', eslint.replace(anchor[0], `${anchor[0]}${anchor[1]}${rule}\n`));
  }
  if (!tree.exists(`docs/${o.name}.md`))
    tree.write(`docs/${o.name}.md`, `# ${o.name}: decisions\n\nWrite here what the code of ${o.name} relies on.\n`);
}

/**
 * deploy/kubernetes/base: the new service's Deployment, Service, PDB, HPA and migration Job, made from
 * rum-ingestion's (a service with no variables of its own), and its public URL in the ConfigMap. The Kubernetes
 * contract test (tools/workspace-checks/test/kubernetes.e2e-spec.ts) holds them true like the others.
 */
function addKubernetesManifests(tree, o) {
  const base = 'deploy/kubernetes/base';
  const model = 'rum-ingestion';
  const publicUrlKey = `${o.name.replace(/-api$/, '').replace(/-/g, '_').toUpperCase()}_PUBLIC_URL`;
  const from = (text) =>
    text
      .replaceAll(model, o.name)
      .replaceAll('containerPort: 3003', `containerPort: ${o.port}`)
      .replaceAll('RUM_PUBLIC_URL', publicUrlKey);
  for (const suffix of ['', '-migrate']) {
    const text = tree.read(`${base}/${model}${suffix}.yaml`, 'utf8');
    if (text) tree.write(`${base}/${o.name}${suffix}.yaml`, from(text));
  }
  const kustomization = tree.read(`${base}/kustomization.yaml`, 'utf8');
  if (kustomization)
    tree.write(
      `${base}/kustomization.yaml`,
      kustomization.replace(
        `  - ${model}.yaml\n`,
        `  - ${model}.yaml\n  - ${o.name}-migrate.yaml\n  - ${o.name}.yaml\n`,
      ),
    );
  const config = tree.read(`${base}/config.yaml`, 'utf8');
  if (config) tree.write(`${base}/config.yaml`, `${config.trimEnd()}\n  ${publicUrlKey}: http://${o.name}\n`);
}

module.exports = async function serviceGenerator(tree, options) {
  const o = normalize(tree, options);
  addSchemaLib(tree, o);
  addLib(tree, o);
  addApp(tree, o);
  addToLists(tree, o);
  // Prettier with the workspace's settings, so the output lints clean whatever the names' lengths.
  await formatFiles(tree);
  return () => {
    console.log(`next: npm run openapi:export, then npm test -- apps/${o.name}`);
  };
};
