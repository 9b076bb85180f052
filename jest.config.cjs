// Every Jest project of the workspace; `npm test` runs them all in one Jest invocation.
module.exports = {
  testTimeout: 60000,
  projects: [
    '<rootDir>/apps/*/jest.config.cjs',
    '<rootDir>/libs/**/jest.config.cjs',
    '<rootDir>/tools/*/jest.config.cjs',
  ],
};
