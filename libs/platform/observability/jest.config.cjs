const preset = require('../../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'platform-observability', rootDir: __dirname };
