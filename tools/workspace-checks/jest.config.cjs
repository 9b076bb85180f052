const preset = require('../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'workspace-checks', rootDir: __dirname };
