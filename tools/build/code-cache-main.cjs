// dist/apps/<app>/main.js: runs app.js (the webpack bundle) through a V8 code cache. Without one, V8 parses the
// whole ~8 MB bundle at every start; with it, a start deserializes the bytecode instead (docs/benchmarks/start-up.md).
// The cache is written once, 10 s after a start that had none (it then holds what start-up compiled), into
// .code-cache/ beside the bundle, named by the bundle's hash, the Node version and the V8 flags (V8 refuses a cache
// made under other flags: npm start and the image pass some, tests none). Where the folder is read-only the start
// compiles, as without a cache.
// `node <flags> main.js --write-code-cache` writes a cache without starting anything (the image's build does, with
// the flags of its CMD): it evaluates the bundle's modules, stops before the service runs and keeps what that
// compiled; Nest's bootstrap is then compiled at each start.
'use strict';
const { createHash } = require('node:crypto');
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

const bundle = path.join(__dirname, 'app.js');
const dir = path.join(__dirname, '.code-cache');
const bundleHash = '__BUNDLE_HASH__';
const flags = createHash('sha256').update(process.execArgv.join(' ')).digest('hex').slice(0, 8);
const name = `app-${bundleHash}-${process.version}-${process.arch}-${flags}.bin`;
const warmUpOnly = process.argv.includes('--write-code-cache');

let cachedData;
try {
  cachedData = warmUpOnly ? undefined : readFileSync(path.join(dir, name));
} catch {
  // no cache yet, or none can be read here
}
// app.js is already the CommonJS wrapper function (tools/build/webpack.base.cjs): compiled as read, one copy held.
const script = new vm.Script(readFileSync(bundle, 'utf8'), {
  filename: bundle,
  cachedData,
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
const cacheMissed = cachedData === undefined || script.cachedDataRejected;
cachedData = undefined;

function writeCache() {
  mkdirSync(dir, { recursive: true });
  // Caches of earlier builds go; this build's caches for other flag sets stay.
  for (const old of readdirSync(dir))
    if (!old.startsWith(`app-${bundleHash}-`)) rmSync(path.join(dir, old), { force: true });
  const partial = path.join(dir, `${name}.${process.pid}`);
  writeFileSync(partial, script.createCachedData());
  renameSync(partial, path.join(dir, name));
}

// Read by runService (libs/platform/http), which then starts nothing.
if (warmUpOnly) globalThis[Symbol.for('acme.codeCache.warmUpOnly')] = true;
if (!warmUpOnly && cacheMissed)
  setTimeout(() => {
    try {
      writeCache();
    } catch {
      // read-only: later starts compile, as this one did
    }
  }, 10_000).unref();

const app = new Module(bundle, module);
app.filename = bundle;
app.paths = Module._nodeModulePaths(__dirname);
script.runInThisContext()(app.exports, Module.createRequire(bundle), app, bundle, __dirname);
if (warmUpOnly) {
  writeCache();
  process.exit(0);
}
