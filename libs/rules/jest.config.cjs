const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'rules', rootDir: __dirname };
