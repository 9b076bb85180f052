const preset = require('../../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'platform-auth', rootDir: __dirname };
