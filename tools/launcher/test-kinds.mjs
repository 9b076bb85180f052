// The three kinds of test and which files each holds; `npm test` and the Nx targets share this table.
import { fileURLToPath } from 'node:url';

/**
 * Jest's console output plus the results file `.ci/run` counts (path in JEST_RESULTS_FILE), written by our reporter
 * because Jest's own `--json` writer throws on a circular error object and then writes nothing.
 */
export const RESULTS_REPORTERS = [
  '--reporters=default',
  `--reporters=${fileURLToPath(new URL('./json-results-reporter.cjs', import.meta.url))}`,
];

/** Nx target → Jest `testMatch` (relative to a project's root) and whether it needs PostgreSQL and Redis. */
export const TEST_KINDS = {
  test: { match: '**/*.spec.ts', services: false },
  'test-int': { match: '**/*.int-spec.ts', services: true },
  'test-e2e': { match: '**/*.e2e-spec.ts', services: true },
};

/** Files that measure rates or kill processes: run alone, after the rest, so parallel files cannot starve them. */
export const SERIAL_TESTS = [
  'enforcement-accuracy\\.e2e-spec\\.ts$',
  'migration-worker/test/fault\\.e2e-spec\\.ts$',
  // Asserts the longest event-loop block of a 10k x 5 import: parallel files' CPU would blur it.
  'migration-worker/test/heavy-operations\\.e2e-spec\\.ts$',
  // Waits for a quiet event-loop window: parallel files keep every window busy.
  'observability/src/lib/idle-collection\\.spec\\.ts$',
  'workspace-checks/test/shutdown\\.e2e-spec\\.ts$',
];

/**
 * Run a second time, alone, against a real six-node Redis Cluster (REDIS_CLUSTER_NODES): every Redis use of the
 * services (limiter scripts, pub/sub, caches, BullMQ) and the cluster's own failover (docs/decisions.md#redis-cluster).
 */
export const CLUSTER_TESTS = [
  'platform/redis/src/lib/redis-pubsub\\.int-spec\\.ts$',
  'platform/redis/src/lib/redis-cluster\\.int-spec\\.ts$',
  'platform/rate-limiting/src/lib/rate-limiter\\.int-spec\\.ts$',
  'platform/queue/src/lib/queue\\.module\\.int-spec\\.ts$',
  'policies/src/lib/enforcement/policy-enforcer\\.int-spec\\.ts$',
  'management-api/test/enforcement\\.e2e-spec\\.ts$',
  'management-api/test/enforcement-accuracy\\.e2e-spec\\.ts$',
  'rum-ingestion/test/limits\\.e2e-spec\\.ts$',
  'migration-worker/test/fault\\.e2e-spec\\.ts$',
  'workspace-checks/test/redis-cluster-failover\\.e2e-spec\\.ts$',
];

/** Files that only make sense against a cluster: the single-Redis passes leave them out. */
export const CLUSTER_ONLY_TESTS = ['redis-cluster\\.int-spec\\.ts$', 'redis-cluster-failover\\.e2e-spec\\.ts$'];

/** Run only against a private primary with a streaming replica, when PostgreSQL's server programs are on the machine. */
export const REPLICA_TESTS = ['/test/read-replicas\\.e2e-spec\\.ts$'];
