// Start-to-healthy time (migrations applied into a fresh database) and idle RSS of each built service,
// beside a raw node:http + pg + ioredis process doing the same health check. Run: node tools/bench/foundation/startup.mjs
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

const ROOT = new URL('../../..', import.meta.url).pathname;
const SERVER = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const APPS = JSON.parse(readFileSync(join(ROOT, 'tools/services.json'), 'utf8')).map((service) => service.name);
const RUNS = Number(process.env.RUNS ?? 3);

const RAW = `
const http = require('node:http'); const { Client } = require('pg'); const Redis = require('ioredis');
const db = new Client({ connectionString: process.env.DATABASE_URL }); const redis = new Redis(process.env.REDIS_URL);
db.connect().then(() => http.createServer(async (req, res) => {
  try { await db.query('select 1'); await redis.ping(); res.writeHead(200, {'content-type': 'application/json'}); res.end('{"status":"ok"}'); }
  catch { res.writeHead(503); res.end(); }
}).listen(Number(process.env.PORT)));
process.on('SIGTERM', () => process.exit(0));`;

async function admin(sql) {
  const client = new pg.Client({ connectionString: SERVER });
  await client.connect();
  try { await client.query(sql); } finally { await client.end(); }
}

const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;

async function measure(label, args, port) {
  const db = `bench_start_${label.replace(/-/g, '_')}_${Date.now()}`;
  await admin(`CREATE DATABASE ${db}`);
  const url = new URL(SERVER); url.pathname = `/${db}`;
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: ROOT, stdio: 'ignore',
    env: { ...process.env, PORT: String(port), DATABASE_URL: url.toString(), REDIS_URL, REDIS_PREFIX: `bench:${db}`, LOG_LEVEL: 'warn', ADMIN_TOKEN: 'bench-admin-token-0123456789', MANAGEMENT_BOOTSTRAP_CLIENT_ID: 'bench', MANAGEMENT_BOOTSTRAP_CLIENT_SECRET: 'bench-secret-0123456789abcdef0123456789' },
  });
  let healthyMs;
  while (healthyMs === undefined) {
    if (child.exitCode !== null) throw new Error(`${label} exited with ${child.exitCode}`);
    try { if ((await fetch(`http://127.0.0.1:${port}/health`)).status === 200) healthyMs = performance.now() - started; } catch { /* starting */ }
    if (healthyMs === undefined) await new Promise((r) => setTimeout(r, 20));
    if (performance.now() - started > 30000) throw new Error(`${label} not healthy in 30 s`);
  }
  await new Promise((r) => setTimeout(r, 3000));
  const rss = rssMb(child.pid);
  await new Promise((resolve) => { child.once('exit', resolve); child.kill('SIGTERM'); });
  await admin(`DROP DATABASE ${db} WITH (FORCE)`);
  return { healthyMs, rss };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
const raw = [];
for (let i = 0; i < RUNS; i++) raw.push(await measure('raw', ['-e', RAW], 3990));
const rawRow = { service: 'raw node:http + pg + ioredis', healthyMs: median(raw.map((r) => r.healthyMs)), rss: median(raw.map((r) => r.rss)) };
for (const [i, app] of APPS.entries()) {
  const runs = [];
  for (let r = 0; r < RUNS; r++) runs.push(await measure(app, [join(ROOT, 'dist/apps', app, 'main.js')], 3991 + i));
  rows.push({ service: app, healthyMs: median(runs.map((r) => r.healthyMs)), rss: median(runs.map((r) => r.rss)) });
}
const lines = [
  `| service | start to healthy (ms, median of ${RUNS}) | idle RSS (MB) | vs raw start | vs raw RSS |`,
  '|---|---|---|---|---|',
  `| ${rawRow.service} | ${rawRow.healthyMs.toFixed(0)} | ${rawRow.rss.toFixed(1)} | 1.0x | 1.0x |`,
  ...rows.map((r) => `| ${r.service} | ${r.healthyMs.toFixed(0)} | ${r.rss.toFixed(1)} | ${(r.healthyMs / rawRow.healthyMs).toFixed(1)}x | ${(r.rss / rawRow.rss).toFixed(1)}x |`),
];
console.log(lines.join('\n'));
mkdirSync(join(ROOT, '.data'), { recursive: true });
writeFileSync(join(ROOT, '.data/bench-startup.md'), lines.join('\n') + '\n');
