const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'management-api', rootDir: __dirname };
