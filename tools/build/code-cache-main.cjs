// dist/apps/<app>/main.js: runs app.js (the webpack bundle) through a V8 code cache. With the cache a start
// deserializes the bytecode of everything start-up ran instead of compiling it (docs/benchmarks/start-up.md).
// The cache is written once, 10 s after a start that had none (it then holds what start-up compiled), into
// .code-cache/ beside the bundle, named by the bundle's hash and the Node version; V8 refuses a cache made with
// other flags, and the next start writes a new one. Where the folder is read-only the start compiles, as without it
// (docker/Dockerfile gives the service user that folder, so a container's later starts use it).
'use strict';
const { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const path = require('node:path');
const vm = require('node:vm');

const bundle = path.join(__dirname, 'app.js');
const dir = path.join(__dirname, '.code-cache');
const name = `app-${'__BUNDLE_HASH__'}-${process.version}-${process.arch}.bin`;
let cachedData;
try {
  cachedData = readFileSync(path.join(dir, name));
} catch {
  // no cache yet, or none can be read here
}
// app.js is already the CommonJS wrapper function (tools/build/webpack.base.cjs): compiled as read, one copy held.
const script = new vm.Script(readFileSync(bundle, 'utf8'), {
  filename: bundle,
  cachedData,
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
if (cachedData === undefined || script.cachedDataRejected) {
  setTimeout(() => {
    try {
      mkdirSync(dir, { recursive: true });
      for (const old of readdirSync(dir)) if (old !== name) rmSync(path.join(dir, old), { force: true });
      const partial = path.join(dir, `${name}.${process.pid}`);
      writeFileSync(partial, script.createCachedData());
      renameSync(partial, path.join(dir, name));
    } catch {
      // read-only: later starts compile, as this one did
    }
  }, 10_000).unref();
}
cachedData = undefined;
const app = new Module(bundle, module);
app.filename = bundle;
app.paths = Module._nodeModulePaths(__dirname);
script.runInThisContext()(app.exports, Module.createRequire(bundle), app, bundle, __dirname);
