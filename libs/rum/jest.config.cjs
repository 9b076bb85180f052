const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'rum', rootDir: __dirname };
