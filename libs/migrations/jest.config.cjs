const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'migrations', rootDir: __dirname };
