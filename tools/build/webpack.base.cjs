// One webpack config for every Nest app: SWC (keeps decorator metadata), tsconfig aliases,
// node_modules left external, output at dist/apps/<app>/main.js.
const path = require('node:path');
const nodeExternals = require('webpack-node-externals');
const { TsconfigPathsPlugin } = require('tsconfig-paths-webpack-plugin');

const root = path.resolve(__dirname, '../..');

module.exports = function appWebpackConfig(appName) {
  return {
    mode: 'production',
    target: 'node',
    context: root,
    entry: { main: path.join(root, 'apps', appName, 'src/main.ts') },
    output: { path: path.join(root, 'dist/apps', appName), filename: '[name].js', clean: true },
    devtool: 'source-map',
    optimization: { minimize: false, nodeEnv: false },
    externalsPresets: { node: true },
    externals: [nodeExternals({ modulesDir: path.join(root, 'node_modules') })],
    resolve: {
      extensions: ['.ts', '.js', '.json'],
      plugins: [new TsconfigPathsPlugin({ configFile: path.join(root, 'tsconfig.base.json') })],
    },
    module: {
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
    stats: 'errors-warnings',
  };
};
