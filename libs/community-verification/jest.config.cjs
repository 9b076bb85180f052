const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'community-verification', rootDir: __dirname };
