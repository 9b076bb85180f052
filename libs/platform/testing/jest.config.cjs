const preset = require('../../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'platform-testing', rootDir: __dirname };
