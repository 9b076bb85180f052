const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'community-api', rootDir: __dirname };
