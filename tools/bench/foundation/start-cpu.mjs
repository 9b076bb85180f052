// The process's own CPU time (user + system, /proc/<pid>/stat) from spawn to the first 200 on /health, and how many
// modules it evaluated by then: the start-up figures a loaded machine moves least (wall time there is mostly waiting
// for a core). Each service starts into a fresh database with the services' V8 flags and allocator, as in startup.mjs.
//   node tools/bench/foundation/start-cpu.mjs [--rounds 5] [app ...]
// A first start per app writes its code cache (main.js, 10 s after a start without one) and is not counted; one more
// start, not timed, counts modules: the bundle's (webpack's module cache, through a read hook in a preload, so that
// start compiles without the cache) and Node's own CommonJS ones (externals such as swagger-ui-dist), read at healthy.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { admin, benchServiceEnv, FLAGS, ROOT, stopAndDrop } from './start-support.mjs';

const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const ROUNDS = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 5;
const named = args.filter((arg, i) => !arg.startsWith('--') && (roundsAt < 0 || i !== roundsAt + 1));
const APPS = named.length
  ? named
  : JSON.parse(readFileSync(join(ROOT, 'tools/services.json'), 'utf8')).map((service) => service.name);
const PORT = 3998;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Loaded with -r in the counting start: exposes webpack's module cache and answers SIGUSR2 with the counts.
const COUNTER = join(tmpdir(), `start-cpu-counter-${process.pid}.cjs`);
writeFileSync(
  COUNTER,
  `const fs = require('node:fs');
const read = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  const text = read.call(this, file, ...rest);
  if (typeof file !== 'string' || !file.endsWith('/app.js') || typeof text !== 'string') return text;
  fs.readFileSync = read;
  return text.replace('var __webpack_module_cache__={};', 'var __webpack_module_cache__=globalThis.__startCpuModules={};');
};
process.on('SIGUSR2', () => {
  const bundled = Object.keys(globalThis.__startCpuModules ?? {}).length;
  const native = Object.keys(require.cache).length;
  fs.writeFileSync(process.env.START_CPU_COUNT_FILE, JSON.stringify({ bundled, native }));
});
`,
);

function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function start(app, { count = false, holdMs = 0 } = {}) {
  const db = `bench_start_cpu_${app.replace(/-/g, '_')}_${Date.now()}`;
  await admin(`CREATE DATABASE ${db}`);
  const countFile = join(tmpdir(), `${db}.json`);
  const began = performance.now();
  const child = spawn(
    process.execPath,
    [...FLAGS, ...(count ? ['-r', COUNTER] : []), join(ROOT, 'dist/apps', app, 'main.js')],
    { cwd: ROOT, stdio: 'ignore', env: { ...benchServiceEnv(db, PORT), START_CPU_COUNT_FILE: countFile } },
  );
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${app} exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${PORT}/health`)).status === 200) break;
      } catch {
        /* starting */
      }
      if (performance.now() - began > 30_000) throw new Error(`${app} not healthy in 30 s`);
      await sleep(20);
    }
    const figures = { wallMs: performance.now() - began, cpuMs: cpuMs(child.pid) };
    if (count) {
      child.kill('SIGUSR2');
      await sleep(300);
      Object.assign(figures, JSON.parse(readFileSync(countFile, 'utf8')));
    }
    await sleep(holdMs);
    return figures;
  } finally {
    await stopAndDrop(child, db);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () =>
  loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
const loadBefore = load();
const rows = [];
for (const app of APPS) {
  await start(app, { holdMs: 11_000 }); // writes the code cache
  const modules = await start(app, { count: true });
  const runs = [];
  for (let round = 0; round < ROUNDS; round++) runs.push(await start(app));
  rows.push(
    `| ${app} | ${median(runs.map((r) => r.cpuMs))} (${runs.map((r) => r.cpuMs).join(', ')}) | ${median(runs.map((r) => r.wallMs)).toFixed(0)} | ${modules.bundled} + ${modules.native} |`,
  );
}
console.log(
  `node ${process.version}, flags ${FLAGS.join(' ')}, ${ROUNDS} cached starts per app; load average before ${loadBefore}, after ${load()}\n\n` +
    '| service | CPU to healthy ms, median (rounds) | wall to healthy ms, median | modules at healthy: bundled + Node CJS |\n|---|---:|---:|---:|\n' +
    rows.join('\n'),
);
