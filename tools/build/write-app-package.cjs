// After webpack: writes dist/apps/<app>/package.json and package-lock.json holding only what that app's bundle loads
// at run time, so an image (or any host) installs the app alone: `npm ci --omit=dev` in that folder.
// The list is the bundle's own bare requires (the webpack externals: native addons, packages that read their own
// files) plus their required peer dependencies, transitively. Everything else is inside app.js. Nx's project graph is
// not used for the list: it counts what the apps' test files import (docs/deploying.md#runtime-packages).
// `node write-app-package.cjs --list <app>` prints the list without writing anything (tools/workspace-checks uses it).
const { builtinModules } = require('node:module');
const { existsSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '../..');

/** `@scope/name/sub` → `@scope/name`; undefined for relative, absolute and builtin requests. */
function packageName(request) {
  if (/^[./]/.test(request) || request.startsWith('node:')) return undefined;
  if (builtinModules.includes(request.split('/')[0])) return undefined;
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Package names of the bundle's bare requires. */
function bundleRequires(bundle) {
  const names = new Set();
  // Webpack writes an external as `module.exports=require("x")`, or `const x_namespaceObject=require("x")` inside a
  // concatenated ES module; other `require("x")` text in the bundle sits in strings (messages, generated code).
  for (const [, request] of bundle.matchAll(/(?:module\.exports|const \w+)\s*=\s*require\("([^"]+)"\)/g)) {
    const name = packageName(request);
    if (name) names.add(name);
  }
  return names;
}

function installedManifest(name) {
  const file = path.join(root, 'node_modules', name, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : undefined;
}

/**
 * Packages an external package requires without declaring them (neither dependency nor peer): npm would not install
 * them. `@bull-board/api/bullMQAdapter` requires `bullmq` (the deployment test found it: the worker did not start).
 */
const UNDECLARED_REQUIRES = { '@bull-board/api': ['bullmq'] };

/** The bundle's requires plus the peers they need (optional peers only where the workspace installs them). */
function runtimePackages(bundle) {
  const names = bundleRequires(bundle);
  for (const name of names) {
    const manifest = installedManifest(name);
    if (!manifest) throw new Error(`the bundle requires ${name}, which the workspace does not install`);
    const optional = manifest.peerDependenciesMeta ?? {};
    for (const peer of Object.keys(manifest.peerDependencies ?? {})) {
      if (optional[peer]?.optional) continue;
      names.add(peer); // a Set iterates over what is added while iterating: peers of peers follow
    }
    for (const undeclared of UNDECLARED_REQUIRES[name] ?? []) names.add(undeclared);
  }
  return [...names].sort((a, b) => a.localeCompare(b));
}

/** Exact versions: the root package.json's pin, else the version the root lockfile installs. */
function pinnedVersions(names) {
  const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const rootLock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  return Object.fromEntries(
    names.map((name) => {
      const version = rootPackage.dependencies?.[name] ?? rootLock.packages[`node_modules/${name}`]?.version;
      if (!version) throw new Error(`${name} is not in the workspace's lockfile`);
      return [name, version];
    }),
  );
}

function appDependencies(app) {
  const bundle = readFileSync(path.join(root, 'dist/apps', app, 'app.js'), 'utf8');
  return pinnedVersions(runtimePackages(bundle));
}

async function write(app) {
  const { createProjectGraphAsync } = require('@nx/devkit');
  const { createLockFile } = require('@nx/js');
  const outDir = path.join(root, 'dist/apps', app);
  const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const appPackage = {
    name: `@acme/${app}`,
    version: rootPackage.version,
    private: true,
    main: 'main.js',
    scripts: { start: 'node main.js', migrate: 'node main.js migrate' },
    engines: rootPackage.engines,
    dependencies: appDependencies(app),
    ...(rootPackage.overrides ? { overrides: rootPackage.overrides } : {}),
  };
  const graph = await createProjectGraphAsync({ exitOnError: true });
  writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(appPackage, null, 2)}\n`);
  writeFileSync(path.join(outDir, 'package-lock.json'), createLockFile(appPackage, graph, 'npm'));
}

module.exports = { bundleRequires, runtimePackages, UNDECLARED_REQUIRES };

if (require.main === module) {
  const [flag, app] = process.argv[2] === '--list' ? ['--list', process.argv[3]] : [undefined, process.argv[2]];
  if (!app) throw new Error('usage: write-app-package.cjs [--list] <app>');
  const done = flag ? Promise.resolve(process.stdout.write(`${JSON.stringify(appDependencies(app))}\n`)) : write(app);
  done.catch((error) => {
    process.stderr.write(`write-app-package ${app}: ${error.stack ?? error}\n`);
    process.exit(1);
  });
}
