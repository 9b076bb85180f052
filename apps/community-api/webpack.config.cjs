module.exports = require('../../tools/build/webpack.base.cjs')('community-api');
