const preset = require('../../jest.preset.cjs');

// testTimeout is a global option (ignored per project), so the generous timeout is set in a setup file.
module.exports = {
  ...preset,
  displayName: 'migration-worker',
  rootDir: __dirname,
  setupFilesAfterEnv: [...preset.setupFilesAfterEnv, '<rootDir>/test/jest.setup.ts'],
};
