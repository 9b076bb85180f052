const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'events', rootDir: __dirname };
