const preset = require('../../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'platform-http', rootDir: __dirname };
