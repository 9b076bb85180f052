// After webpack: writes dist/apps/<app>/package.json and package-lock.json holding only that app's runtime
// dependencies, so an image (or any host) installs the app alone: `npm ci --omit=dev` in that folder.
// Nx derives the dependencies from the project graph (the app and the libs it imports, production files only);
// every bare `require` left in the bundle app.js (webpack externals: natives, packages that read their own files)
// is added if the graph missed it. The bundled packages stay listed: what an operator installs does not change.
const { builtinModules } = require('node:module');
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { createProjectGraphAsync } = require('@nx/devkit');
const { createLockFile, createPackageJson } = require('@nx/js');

const root = path.resolve(__dirname, '../..');
const app = process.argv[2];
if (!app) throw new Error('usage: write-app-package.cjs <app>');
const outDir = path.join(root, 'dist/apps', app);

/** Package names of the bundle's bare requires: `@scope/name/sub` → `@scope/name`, builtins dropped. */
function bundleExternals() {
  const bundle = readFileSync(path.join(outDir, 'app.js'), 'utf8');
  const names = new Set();
  // Webpack writes an external as `module.exports=require("x")`, or `const x_namespaceObject=require("x")` inside a
  // concatenated ES module; other `require("x")` text in the bundle sits in strings (messages, generated code).
  for (const [, request] of bundle.matchAll(/(?:module\.exports|const \w+)\s*=\s*require\("([^"./][^"]*)"\)/g)) {
    if (request.startsWith('node:') || builtinModules.includes(request.split('/')[0])) continue;
    const parts = request.split('/');
    names.add(request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return names;
}

async function main() {
  const graph = await createProjectGraphAsync({ exitOnError: true });
  const rootPackage = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  const rootLock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
  const pkg = createPackageJson(app, graph, { isProduction: true, root });
  const dependencies = { ...pkg.dependencies };
  for (const name of bundleExternals()) {
    if (dependencies[name]) continue;
    const version = rootPackage.dependencies?.[name] ?? rootLock.packages[`node_modules/${name}`]?.version;
    if (!version) throw new Error(`${app}: the bundle requires ${name}, which the workspace does not install`);
    dependencies[name] = version;
  }
  const sorted = Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b)));
  const appPackage = {
    name: `@acme/${app}`,
    version: rootPackage.version,
    private: true,
    main: 'main.js',
    scripts: { start: 'node main.js' },
    engines: rootPackage.engines,
    dependencies: sorted,
    ...(rootPackage.overrides ? { overrides: rootPackage.overrides } : {}),
  };
  writeFileSync(path.join(outDir, 'package.json'), `${JSON.stringify(appPackage, null, 2)}\n`);
  writeFileSync(path.join(outDir, 'package-lock.json'), createLockFile(appPackage, graph, 'npm'));
}

main().catch((error) => {
  process.stderr.write(`write-app-package: ${error.stack ?? error}\n`);
  process.exit(1);
});
