const preset = require('../../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'platform-errors', rootDir: __dirname };
