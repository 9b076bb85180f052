module.exports = require('../../tools/build/webpack.base.cjs')('migration-worker');
