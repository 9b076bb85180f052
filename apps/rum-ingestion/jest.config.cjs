const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'rum-ingestion', rootDir: __dirname };
