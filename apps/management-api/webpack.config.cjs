module.exports = require('../../tools/build/webpack.base.cjs')('management-api');
