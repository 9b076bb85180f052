// Paired one-off starts of one service under variants (another Node binary, an environment, another entry file),
// alternating within each round: start to healthy (wall and the process's own CPU time, which depends less on the
// machine's load) and RSS at healthy. Each start gets a fresh database; the services' V8 flags and allocator apply.
//   node tools/bench/foundation/start-ab.mjs <app> <rounds> '<variants>'
// variants: a JSON array of { "label", "node"?: path, "entry"?: path, "env"?: {...}, "flags"?: [V8/Node flags added to
// the services' own] }; e.g.
//   '[{"label":"26"},{"label":"24","node":"/opt/node24/bin/node"},{"label":"cache","env":{"NODE_COMPILE_CACHE":"/tmp/cc"}}]'
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { admin, benchServiceEnv, FLAGS, ROOT, stopAndDrop } from './start-support.mjs';

const [app, rounds, variantsJson] = process.argv.slice(2);
if (!app || !rounds || !variantsJson) throw new Error("usage: start-ab.mjs <app> <rounds> '<variants json>'");
const variants = JSON.parse(variantsJson);
const PORT = 3997;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** RSS (MB) and user + system CPU (ms) of a process, from /proc. */
function usage(pid) {
  const rss = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { rss, cpuMs: (Number(fields[11]) + Number(fields[12])) * 10 };
}

async function start(variant) {
  const db = `bench_start_ab_${Date.now()}`;
  await admin(`CREATE DATABASE ${db}`);
  const began = performance.now();
  const child = spawn(
    variant.node ?? process.execPath,
    [...FLAGS, ...(variant.flags ?? []), variant.entry ?? join(ROOT, 'dist/apps', app, 'main.js')],
    {
      cwd: ROOT,
      stdio: 'ignore',
      env: { ...benchServiceEnv(db, PORT), ...(variant.env ?? {}) },
    },
  );
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${variant.label} exited with ${child.exitCode}`);
      if (performance.now() - began > 60000) throw new Error(`${variant.label} not healthy in 60 s`);
      const healthy = await fetch(`http://127.0.0.1:${PORT}/health`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (healthy) return { ms: performance.now() - began, ...usage(child.pid) };
      await sleep(10);
    }
  } finally {
    await stopAndDrop(child, db);
  }
}

const results = Object.fromEntries(variants.map((variant) => [variant.label, []]));
for (let round = 0; round < Number(rounds); round++)
  for (const variant of variants) results[variant.label].push(await start(variant));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(
  `${app}; load average ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')}; ${rounds} paired rounds`,
);
for (const [label, runs] of Object.entries(results))
  console.log(
    `${label.padEnd(20)} healthy ${median(runs.map((r) => r.ms)).toFixed(0)} ms (${runs.map((r) => r.ms.toFixed(0)).join(', ')}); ` +
      `CPU ${median(runs.map((r) => r.cpuMs))} ms; RSS ${median(runs.map((r) => r.rss)).toFixed(1)} MB`,
  );
