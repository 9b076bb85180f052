module.exports = require('../../tools/build/webpack.base.cjs')('rum-ingestion');
