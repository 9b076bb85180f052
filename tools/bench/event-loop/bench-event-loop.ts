/**
 * Event-loop benchmark: starts the services, runs each heavy operation while `GET /health` is sampled every
 * 50 ms, and prints the longest /health answer (the longest stall the operation caused) and the operation's time.
 *
 *   node -r @swc-node/register tools/bench/event-loop/bench-event-loop.ts [operation ...] [--rounds 3]
 *
 * No operation named: all of them. Run it under `flock /tmp/heavy.lock` on a shared machine.
 * Uses Postgres/Redis from DATABASE_URL/REDIS_URL (defaults: local); each service gets its own database and
 * Redis prefix, dropped at the end.
 */
import { machineLine, markdownTable, median } from '../support/report';
import { numberArg, Processes, sleep } from '../support/processes';
import { idleHealthMs, watchHealth } from './health-watch';
import { startCommunityApi } from './community-operations';
import { startManagementApi } from './management-operations';
import { startMigrationWorker } from './migration-operations';
import { startRumIngestion } from './rum-operations';
import { Operation, ServiceContext, ServiceUnderTest } from './operation';

type Starter = (context: ServiceContext) => Promise<ServiceUnderTest>;

/** Each service's starter and the operations it serves, in the order they run. */
const SERVICES: Array<{ start: Starter; operations: string[] }> = [
  { start: startMigrationWorker, operations: ['import-10k', 'migrate-10k-ids'] },
  { start: startManagementApi, operations: ['rotate-3-keys', 'policy-page-100'] },
  { start: startRumIngestion, operations: ['ingest-1000-events-50-rules'] },
  { start: startCommunityApi, operations: ['gallery-10x20', 'sign-up-20'] },
];

const ROUNDS = numberArg('rounds', 3);
const log = (line: string) => process.stdout.write(`${line}\n`);

interface Row {
  operation: string;
  service: string;
  idleMs: number;
  longestMs: number[];
  totalMs: number[];
  failures: number;
  notes: string[];
}

async function measure(base: string, operation: Operation): Promise<Row> {
  const row: Row = {
    operation: operation.name,
    service: operation.service,
    idleMs: 0,
    longestMs: [],
    totalMs: [],
    failures: 0,
    notes: [],
  };
  for (let round = 0; round < ROUNDS; round++) {
    await operation.prepare?.();
    await sleep(500);
    row.idleMs = Math.max(row.idleMs, await idleHealthMs(base, 10));
    const watch = watchHealth(base);
    await sleep(100);
    const started = performance.now();
    try {
      await operation.run();
    } catch (error) {
      // A failed operation must not leave the sampler's timer running (the process would never exit).
      await watch.stop();
      throw error;
    }
    row.totalMs.push(performance.now() - started);
    await sleep(100);
    const figures = await watch.stop();
    const note = await operation.compare?.(row.totalMs.at(-1) as number);
    row.longestMs.push(figures.longestMs);
    row.failures += figures.failures;
    if (note) row.notes.push(note);
    log(
      `${operation.name} round ${round + 1}: ${row.totalMs.at(-1)?.toFixed(0)} ms, longest /health ${figures.longestMs.toFixed(0)} ms over ${figures.samples} samples${note ? ` (${note})` : ''}`,
    );
  }
  return row;
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).filter((arg, i, all) => !arg.startsWith('--') && all[i - 1] !== '--rounds');
  const known = SERVICES.flatMap((service) => service.operations);
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new Error(`unknown operation(s) ${unknown.join(', ')}; known: ${known.join(', ')}`);
  const context: ServiceContext = { processes: new Processes(), cleanups: [] };
  const rows: Row[] = [];
  log(`${machineLine()}, node ${process.version}, ${ROUNDS} round(s) each`);
  try {
    for (const service of SERVICES) {
      const operations = service.operations.filter((name) => wanted.length === 0 || wanted.includes(name));
      if (operations.length === 0) continue;
      const started = await service.start(context);
      for (const operation of started.operations.filter((o) => operations.includes(o.name)))
        rows.push(await measure(started.base, operation));
    }
  } finally {
    await context.processes.stopAll();
    for (const cleanup of context.cleanups) await cleanup().catch((error) => log(`cleanup failed: ${error}`));
  }
  log('');
  log(`${machineLine()} (after the run)`);
  log(
    markdownTable(
      [
        'operation',
        'service',
        'longest /health ms (max, median)',
        'total ms (median)',
        'idle /health ms',
        'failed samples',
      ],
      rows.map((r) => [
        r.operation,
        r.service,
        `${Math.max(...r.longestMs).toFixed(0)}, ${median(r.longestMs).toFixed(0)}`,
        median(r.totalMs).toFixed(0),
        r.idleMs.toFixed(0),
        r.failures,
      ]),
    ),
  );
  for (const row of rows.filter((r) => r.notes.length > 0)) log(`${row.operation}: ${row.notes.join('; ')}`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
