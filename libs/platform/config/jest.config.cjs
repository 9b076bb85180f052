const preset = require('../../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'platform-config', rootDir: __dirname };
