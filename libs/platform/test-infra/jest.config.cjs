const preset = require('../../../jest.preset.cjs');

module.exports = { ...preset, displayName: 'platform-test-infra', rootDir: __dirname };
