const preset = require('../../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'platform-redis', rootDir: __dirname };
