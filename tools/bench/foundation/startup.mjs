// Start-to-healthy time (migrations applied into a fresh database) and RSS of each built service, beside a raw
// node:http + pg + ioredis process doing the same health check, both started with the services' V8 flags
// (tools/launcher/node-flags.json) and allocator (tools/launcher/allocator.cjs), as npm start and the Docker image
// do. Each round starts the raw process, then each service; a service's figure is the median over rounds of its
// ratio to the raw run of the same round.
//   node tools/bench/foundation/startup.mjs [--rounds 3] [--idle 20] [--profile]
// Each app's main.js writes a V8 code cache of its bundle after its first start (tools/build/code-cache-main.cjs):
// the caches are removed before round 1, which is reported apart as the first start; the medians and ratios are
// those of the later rounds (all rounds when there is only one).
// RSS is read 3 s after healthy (start-up residue: the young generation grown while loading) and after --idle
// seconds (V8's memory reducer has run by ~20 s when nothing happens). --profile writes a --cpu-prof profile of each
// service, from one extra start not counted in the figures, to .data/startup-profiles/ (read it with tools/bench/management/top-frames.mjs).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { admin, benchServiceEnv, FLAGS, ROOT, stopAndDrop } from './start-support.mjs';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const APPS = JSON.parse(readFileSync(join(ROOT, 'tools/services.json'), 'utf8')).map((service) => service.name);
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const ROUNDS = arg('rounds', Number(process.env.RUNS ?? 3));
const IDLE_S = arg('idle', 20);
const PROFILE = process.argv.includes('--profile');
const PROFILE_DIR = join(ROOT, '.data/startup-profiles');

const RAW = `
const http = require('node:http'); const { Client } = require('pg'); const Redis = require('ioredis');
const db = new Client({ connectionString: process.env.DATABASE_URL }); const redis = new Redis(process.env.REDIS_URL);
db.connect().then(() => http.createServer(async (req, res) => {
  try { await db.query('select 1'); await redis.ping(); res.writeHead(200, {'content-type': 'application/json'}); res.end('{"status":"ok"}'); }
  catch { res.writeHead(503); res.end(); }
}).listen(Number(process.env.PORT)));
process.on('SIGTERM', () => process.exit(0));`;

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function measure(label, args, port) {
  const db = `bench_start_${label.replace(/-/g, '_')}_${Date.now()}`;
  await admin(`CREATE DATABASE ${db}`);
  const started = performance.now();
  const child = spawn(process.execPath, [...FLAGS, ...args], {
    cwd: ROOT,
    stdio: 'ignore',
    env: { ...benchServiceEnv(db, port), REDIS_URL },
  });
  try {
    let healthyMs;
    while (healthyMs === undefined) {
      if (child.exitCode !== null) throw new Error(`${label} exited with ${child.exitCode}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/health`)).status === 200) healthyMs = performance.now() - started;
      } catch {
        /* starting */
      }
      if (healthyMs === undefined) await sleep(20);
      if (performance.now() - started > 30000) throw new Error(`${label} not healthy in 30 s`);
    }
    await sleep(3000);
    const rss3 = rssMb(child.pid);
    await sleep(Math.max(0, IDLE_S - 3) * 1000);
    const rssIdle = rssMb(child.pid);
    return { healthyMs, rss3, rssIdle };
  } finally {
    await stopAndDrop(child, db);
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const f0 = (n) => n.toFixed(0);
const f1 = (n) => n.toFixed(1);
const f2 = (n) => n.toFixed(2);
if (PROFILE) mkdirSync(PROFILE_DIR, { recursive: true });
for (const app of APPS) rmSync(join(ROOT, 'dist/apps', app, '.code-cache'), { recursive: true, force: true });
const runs = { raw: [] };
for (const app of APPS) runs[app] = [];
for (let round = 0; round < ROUNDS; round++) {
  runs.raw.push(await measure('raw', ['-e', RAW], 3990));
  for (const [i, app] of APPS.entries()) {
    runs[app].push(await measure(app, [join(ROOT, 'dist/apps', app, 'main.js')], 3991 + i));
  }
  process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
}
// Profiled starts are extra and not counted: the profiler slows a start down.
if (PROFILE) {
  for (const [i, app] of APPS.entries()) {
    await measure(
      app,
      [
        '--cpu-prof',
        '--cpu-prof-interval',
        '200',
        '--cpu-prof-dir',
        PROFILE_DIR,
        '--cpu-prof-name',
        `${app}.cpuprofile`,
        join(ROOT, 'dist/apps', app, 'main.js'),
      ],
      3991 + i,
    );
  }
}
// Round 1 starts without the code cache; the figures are the later rounds'.
const later = (xs) => (xs.length > 1 ? xs.slice(1) : xs);
const pairRatio = (app, key) => median(later(runs[app].map((run, r) => run[key] / runs.raw[r][key])));
const column = (app, key) => median(later(runs[app].map((r) => r[key])));
const lines = [
  `Machine: load average ${loadavg().map(f1).join(' ')} on ${cpus().length} cores; node ${process.version}; flags ${FLAGS.join(' ') || '(none)'}; ${ROUNDS} rounds (medians of rounds 2-${ROUNDS}; round 1 is the first start, without code cache).`,
  '',
  '| service | first start ms | start to healthy ms (median) | per-round start ratio vs raw | start ratio (median) | RSS 3 s after healthy MB | RSS after ' +
    IDLE_S +
    ' s idle MB | idle RSS ratio (median) |',
  '|---|---:|---:|---|---:|---:|---:|---:|',
  `| raw node:http + pg + ioredis | ${f0(runs.raw[0].healthyMs)} | ${f0(column('raw', 'healthyMs'))} | | 1.00 | ${f1(column('raw', 'rss3'))} | ${f1(column('raw', 'rssIdle'))} | 1.00 |`,
  ...APPS.map(
    (app) =>
      `| ${app} | ${f0(runs[app][0].healthyMs)} | ${f0(column(app, 'healthyMs'))} | ${runs[app].map((run, r) => f2(run.healthyMs / runs.raw[r].healthyMs)).join(', ')} | ${f2(pairRatio(app, 'healthyMs'))} | ${f1(column(app, 'rss3'))} | ${f1(column(app, 'rssIdle'))} | ${f2(pairRatio(app, 'rssIdle'))} |`,
  ),
];
console.log(lines.join('\n'));
mkdirSync(join(ROOT, '.data'), { recursive: true });
writeFileSync(join(ROOT, '.data/bench-startup.md'), lines.join('\n') + '\n');
if (PROFILE)
  console.log(
    `\nprofiles: ${PROFILE_DIR}/<service>.cpuprofile (node tools/bench/management/top-frames.mjs <file> 30 '^(runService|create|init|listen|Module._load) ')`,
  );
