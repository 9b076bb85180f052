const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'community-push', rootDir: __dirname };
