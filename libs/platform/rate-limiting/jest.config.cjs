const preset = require('../../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'platform-rate-limiting', rootDir: __dirname };
