const preset = require('../../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'platform-queue', rootDir: __dirname };
