const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'document-migration', rootDir: __dirname };
