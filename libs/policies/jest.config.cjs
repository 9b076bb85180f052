const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'policies', rootDir: __dirname };
