const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'migration-worker', rootDir: __dirname };
