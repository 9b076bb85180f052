// The three kinds of test and which files each holds; `npm test` and the Nx targets share this table.

/** Nx target → Jest `testMatch` (relative to a project's root) and whether it needs PostgreSQL and Redis. */
export const TEST_KINDS = {
  test: { match: '**/*.spec.ts', services: false },
  'test-int': { match: '**/*.int-spec.ts', services: true },
  'test-e2e': { match: '**/*.e2e-spec.ts', services: true },
};

/** Files that measure rates or kill processes: run alone, after the rest, so parallel files cannot starve them. */
export const SERIAL_TESTS = ['enforcement-accuracy\\.e2e-spec\\.ts$', 'migration-worker/test/fault\\.e2e-spec\\.ts$'];
