const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'oauth', rootDir: __dirname };
