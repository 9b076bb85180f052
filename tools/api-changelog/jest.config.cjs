const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'api-changelog', rootDir: __dirname };
