const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'community', rootDir: __dirname };
