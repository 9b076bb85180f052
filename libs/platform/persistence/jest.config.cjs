const preset = require('../../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'platform-persistence', rootDir: __dirname };
