/**
 * What tracing costs a service's hot route: processes with tracing off and, per sampling ratio, as many with
 * OTEL_TRACES_SAMPLER=parentbased_traceidratio exporting to an OTLP/HTTP sink in this process, all loaded in turn
 * within one run (with --together, one process of each variant at a time). Each service's bench-tracing.ts names
 * its route; the options are shared:
 *
 *   [--ratios 0,0.1] [--processes 3] [--duration 3] [--warmup 5] [--windows 1] [--rounds 6] [--connections 16] [--rate N] [--together] [--profile] [--perf DIR]
 *
 * BENCH_NODE_ARGS adds node arguments to the app processes (e.g. `--log-deopt --logfile=/tmp/deopt-%p.log`, or
 * `--trace-gc-nvp` with BENCH_STDOUT=1, which passes the apps' stdout through); a variant's own go after them
 * (`--ratios 0.1,0.1:NODE_ARGS=--max-semi-space-size=8`).
 *
 * Reports server CPU per request (every thread of the process, from /proc), split by thread (main, V8's workers,
 * libuv's pool, other threads such as the span export worker), per process and per variant; the ratio of the
 * variants' means, and the per-round ratios; with --together, the ratio within each window of simultaneous load.
 * The main thread's garbage-collection pauses per request, by kind, come from each app's /metrics. Within a window
 * the load generators start in an order rotated from window to window; `--ratios off,0.1` measures the method's own
 * noise (a second untraced variant). `--phases` compares traced shares inside one process instead (tracing-phases.ts).
 */
import autocannon from 'autocannon';
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sampledTracingEnv, spanCounts } from './otlp-sink';
import { BENCH_NODE_ARGS, runTracedRoute, startHealthy, type TracedRoute } from './traced-route';
import { benchTracingPhases } from './tracing-phases';
import { memoryBytes, numberArg, threadCpuSeconds } from './processes';
import { confidence95, machineLine, mean, median } from './report';

const DURATION = numberArg('duration', 3);
const ROUNDS = numberArg('rounds', 6);
/**
 * --windows N: measured windows back to back after each warm-up. One warm-up per process load instead of one per
 * window, so more windows fit in a run: a window's ratio varies by about ±10 % on ingest (major GCs land in some
 * windows, not others), and only many windows bring the mean's error below the 5 % it is compared with.
 */
const WINDOWS = numberArg('windows', 1);
const WARMUP = numberArg('warmup', 5);
const CONNECTIONS = numberArg('connections', 16);
/** --rate N: a fixed N requests/s instead of as many as the process answers (a machine not saturated drifts less). */
const RATE = numberArg('rate', 0);
/** Sampling ratios, each a variant beside tracing off, with settings (`variantOf`). */
const RATIOS = (process.argv.includes('--ratios') ? process.argv[process.argv.indexOf('--ratios') + 1] : '0.1').split(
  ',',
);
/**
 * Processes per variant. Two processes of the same code differ by up to ±6 % in CPU per request (JIT and memory
 * layout), so one process per variant compares processes, not tracing; the spread within a variant shows that noise.
 */
const PER_VARIANT = numberArg('processes', 3);
/**
 * --together: one process of each variant loaded at once (each at --rate), instead of every process in turn, and
 * the ratio taken within each such window. The machine's own speed drifts by more than 5 % between windows here
 * (the same RSA signature, off the main thread, took up to 26 % more CPU in one process than in another).
 */
const TOGETHER = process.argv.includes('--together');
/** --perf DIR: `perf record` (on-CPU samples of every thread) of each measured run into DIR. */
const PERF = process.argv.includes('--perf') ? process.argv[process.argv.indexOf('--perf') + 1] : undefined;
const LOAD_BEFORE = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** --profile: a V8 CPU profile of each process in /tmp/<name>-tracing-profile/ (tools/bench/management/top-frames.mjs). */
function profilerArgs(name: string): string[] {
  if (process.argv.includes('--profile'))
    return [
      '--cpu-prof',
      `--cpu-prof-dir=/tmp/${name}-tracing-profile`,
      '-r',
      './tools/bench/management/exit-on-sigterm.cjs',
    ];
  return PERF ? ['--perf-basic-prof-only-functions'] : [];
}

interface Run {
  rps: number;
  rssMb: number;
  cpuMs: number;
  threadsMs: Record<string, number>;
  errors: number;
  /** Main-thread GC pause per request, ms, by kind (major, minor, incremental, weakcb). */
  gcMs: Record<string, number>;
}

/** The main thread's garbage-collection pauses so far, in seconds by kind, from prom-client's default metrics. */
async function gcSeconds(base: string): Promise<Record<string, number>> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const seconds: Record<string, number> = {};
  for (const [, kind, value] of text.matchAll(/^nodejs_gc_duration_seconds_sum\{kind="(\w+)"\} ([\d.e+-]+)$/gm)) {
    seconds[kind] = Number(value);
  }
  return seconds;
}

/** Loads `server` for the warm-up, then measures WINDOWS windows back to back. */
async function load(options: autocannon.Options, server: ChildProcess, base: string): Promise<Run[]> {
  const paced = { ...options, ...(RATE > 0 ? { overallRate: RATE } : {}) };
  // Long enough for V8 to re-optimize what an idle spell deoptimized or flushed (seen in perf as baseline-tier frames).
  await autocannon({ ...paced, duration: WARMUP });
  const runs: Run[] = [];
  for (let window = 0; window < WINDOWS; window += 1) runs.push(await measure(paced, server, base));
  return runs;
}

async function measure(paced: autocannon.Options, server: ChildProcess, base: string): Promise<Run> {
  const gcBefore = await gcSeconds(base);
  const before = threadCpuSeconds(server.pid as number);
  const recorder = PERF
    ? spawn(
        'perf',
        ['record', '-F', '997', '-g', '-p', String(server.pid), '-o', `${PERF}/perf-${server.pid}-${Date.now()}.data`],
        { stdio: 'ignore' },
      )
    : undefined;
  const result = await autocannon({ ...paced, duration: DURATION });
  const after = threadCpuSeconds(server.pid as number);
  const gcAfter = await gcSeconds(base);
  if (recorder) {
    const stopped = new Promise((resolve) => recorder.once('exit', resolve));
    recorder.kill('SIGINT');
    await stopped;
  }
  const threadsMs: Record<string, number> = {};
  for (const group of new Set([...Object.keys(before), ...Object.keys(after)])) {
    threadsMs[group] = (((after[group] ?? 0) - (before[group] ?? 0)) * 1000) / result.requests.total;
  }
  return {
    rps: result.requests.average,
    rssMb: memoryBytes(server.pid as number, 'VmRSS') / 1024 ** 2,
    cpuMs: Object.values(threadsMs).reduce((sum, ms) => sum + ms, 0),
    threadsMs,
    errors: result.non2xx + result.errors + result.timeouts,
    gcMs: Object.fromEntries(
      Object.entries(gcAfter).map(([kind, s]) => [kind, ((s - (gcBefore[kind] ?? 0)) * 1000) / result.requests.total]),
    ),
  };
}

/** `minor 0.081 major 0.012 ...`: a run's GC pauses per request by kind. */
const gcLine = (run: Run) =>
  Object.entries(run.gcMs)
    .map(([kind, ms]) => `${kind} ${ms.toFixed(3)}`)
    .join(' ');

interface App {
  variant: number;
  url: string;
  server: ChildProcess;
  runs: Run[];
}

/** Every round's runs; with --together, each window's CPU per request over tracing off's in the same window. */
async function loadRounds(route: TracedRoute, apps: App[], variants: number) {
  const roundMeans: number[][] = [];
  const paired: number[][] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    if (TOGETHER) {
      // One process of each variant at a time, loaded in the same window: the machine's drift hits them alike.
      for (let k = 0; k < PER_VARIANT; k += 1) {
        const first = ((round + k) % PER_VARIANT) * variants;
        const copy = apps.slice(first, first + variants);
        // The load generators start in an order rotated every load, so no variant keeps the first place.
        const shift = Math.floor(paired.length / WINDOWS) % variants;
        const loads: Array<Promise<Run[]>> = [];
        for (let i = 0; i < variants; i += 1) {
          const v = (i + shift) % variants;
          loads[v] = load(route.load(copy[v].url, CONNECTIONS), copy[v].server, copy[v].url);
        }
        const windows = await Promise.all(loads);
        for (let w = 0; w < WINDOWS; w += 1) {
          const runs = windows.map((ofVariant) => ofVariant[w]);
          copy.forEach((app, v) => app.runs.push(runs[v]));
          paired.push(runs.map((run) => run.cpuMs / runs[0].cpuMs));
          process.stdout.write(
            `window ${paired.length} (variant ${shift} started first): CPU ms/request ${runs.map((run) => run.cpuMs.toFixed(3)).join(' / ')}, ` +
              `RSS MB ${runs.map((run) => run.rssMb.toFixed(0)).join(' / ')}, GC ms/request ${runs.map(gcLine).join(' / ')}\n`,
          );
        }
      }
    } else {
      // Each round starts one process further on, so none always runs first (after the others' load) or last.
      for (let k = 0; k < apps.length; k += 1) {
        const app = apps[(round + k) % apps.length];
        app.runs.push(...(await load(route.load(app.url, CONNECTIONS), app.server, app.url)));
      }
    }
    roundMeans.push(
      Array.from({ length: variants }, (_, v) =>
        mean(
          apps
            .filter((a) => a.variant === v)
            .flatMap((a) => a.runs.slice(round * WINDOWS, (round + 1) * WINDOWS).map((run) => run.cpuMs)),
        ),
      ),
    );
  }
  return { roundMeans, paired };
}

function report(labels: string[], apps: App[], rounds: { roundMeans: number[][]; paired: number[][] }) {
  const groups = [...new Set(apps.flatMap((app) => app.runs.flatMap((run) => Object.keys(run.threadsMs))))].sort();
  process.stdout.write(
    `| variant | requests/s | RSS MB | CPU ms/request | ${groups.map((g) => `${g} ms`).join(' | ')} | GC pause ms (minor, major) | per process (median CPU ms/request) | CPU vs off: means | per round (median) | errors |\n` +
      `|---|---:|---:|---:|${groups.map(() => '---:|').join('')}---:|---|---:|---|---:|\n`,
  );
  const offMean = mean(apps.filter((a) => a.variant === 0).map((a) => median(a.runs.map((r) => r.cpuMs))));
  labels.forEach((label, v) => {
    const mine = apps.filter((a) => a.variant === v);
    const ofProcesses = (pick: (run: Run) => number) => mean(mine.map((a) => median(a.runs.map(pick))));
    const perProcess = mine.map((a) => median(a.runs.map((r) => r.cpuMs)));
    const perRound = rounds.roundMeans.map((means) => means[v] / means[0]).sort((x, y) => x - y);
    process.stdout.write(
      `| ${label} | ${ofProcesses((r) => r.rps).toFixed(0)} | ${ofProcesses((r) => r.rssMb).toFixed(1)} | ${ofProcesses((r) => r.cpuMs).toFixed(3)} | ` +
        groups.map((g) => ofProcesses((r) => r.threadsMs[g] ?? 0).toFixed(3)).join(' | ') +
        ` | ${ofProcesses((r) => r.gcMs['minor'] ?? 0).toFixed(3)}, ${ofProcesses((r) => r.gcMs['major'] ?? 0).toFixed(3)}` +
        ` | ${perProcess.map((x) => x.toFixed(3)).join(', ')} | **${(mean(perProcess) / offMean).toFixed(3)}** | ` +
        `${perRound.map((x) => x.toFixed(3)).join(', ')} (${median(perRound).toFixed(3)}) | ${mine.reduce((n, a) => n + a.runs.reduce((m, r) => m + r.errors, 0), 0)} |\n`,
    );
  });
  labels.slice(1).forEach((label, index) => {
    const inOrder = rounds.paired.map((window) => window[index + 1]);
    if (inOrder.length === 0) return;
    const ratios = [...inOrder].sort((x, y) => x - y);
    // Windows of one load share its two processes, so their ratios are not independent: the per-load means show it.
    const perLoad = Array.from({ length: inOrder.length / WINDOWS }, (_, k) =>
      mean(inOrder.slice(k * WINDOWS, (k + 1) * WINDOWS)),
    );
    process.stdout.write(
      `\n${label} vs off in the same window: median **${median(ratios).toFixed(3)}**, mean ${mean(ratios).toFixed(3)} ` +
        `± ${confidence95(ratios).toFixed(3)} (95 %, ${ratios.length} windows) ` +
        `(${ratios.map((x) => x.toFixed(3)).join(', ')})` +
        `${WINDOWS > 1 ? `; per load of ${WINDOWS} windows: ${perLoad.map((x) => x.toFixed(3)).join(', ')}` : ''}\n`,
    );
  });
}

interface Variant {
  label: string;
  env: Record<string, string>;
  nodeArgs: string[];
}

/**
 * `0.1`, `0.1:OTEL_BSP_SCHEDULE_DELAY=1000`, `off:NODE_ARGS=--single-threaded-gc`: a ratio (or `off`, a second
 * untraced variant), then settings; `NODE_ARGS` (`+` between arguments) goes to node, the rest to the environment.
 */
function variantOf(spec: string, sinkUrl: string): Variant {
  const [ratio, ...settings] = spec.split(':');
  const pairs = settings.map((setting) => {
    const equals = setting.indexOf('=');
    return [setting.slice(0, equals), setting.slice(equals + 1)] as const;
  });
  const sampled = ratio === 'off' ? 'tracing off' : `tracing on, ${Number(ratio) * 100} % sampled`;
  return {
    label: `${sampled}${settings.length ? `, ${settings.join(', ')}` : ''}`,
    env: {
      ...(ratio === 'off' ? {} : sampledTracingEnv(sinkUrl, ratio)),
      ...Object.fromEntries(pairs.filter(([key]) => key !== 'NODE_ARGS')),
    },
    nodeArgs: pairs.filter(([key]) => key === 'NODE_ARGS').flatMap(([, value]) => value.split('+')),
  };
}

/** Runs the comparison for `route` and prints its report. */
export function benchTracingCost(route: TracedRoute): void {
  if (process.argv.includes('--phases')) return benchTracingPhases(route);
  runTracedRoute(route, 'tracing', async ({ databaseUrl, sink, processes, env: base }) => {
    const variants: Variant[] = [
      { label: 'tracing off', env: {}, nodeArgs: [] },
      ...RATIOS.map((spec) => variantOf(spec, sink.url)),
    ];
    const apps: App[] = [];
    // Processes interleaved by variant (off, on, off, on, ...), so start order favours neither; each is healthy
    // before the next picks its port (the ephemeral ports of the others' connections could take a free one).
    for (let copy = 0; copy < PER_VARIANT; copy += 1) {
      for (const [variant, { env, nodeArgs: variantArgs }] of variants.entries()) {
        const nodeArgs = [...profilerArgs(route.name), ...BENCH_NODE_ARGS, ...variantArgs];
        const { server, url } = await startHealthy(route, processes, nodeArgs, { ...base, ...env });
        if (apps.length === 0) await route.prepare?.({ url, databaseUrl });
        apps.push({ variant, url, server, runs: [] });
      }
    }
    const rounds = await loadRounds(route, apps, variants.length);
    process.stdout.write(
      `\n${route.title}, ${CONNECTIONS} connections${RATE > 0 ? ` at ${RATE} requests/s` : ''}; ${PER_VARIANT} processes per variant, ` +
        `${ROUNDS} rounds of ${WINDOWS} × ${DURATION} s per process (each after a ${WARMUP} s warm-up)${TOGETHER ? ', one process of each variant loaded at once' : ''}\n` +
        `load average before: ${LOAD_BEFORE}; after: ${machineLine()}; ${new Date().toISOString()}; OTLP sink: ${sink.stats.exports} exports, ${(sink.stats.bytes / 1e6).toFixed(1)} MB` +
        `${sink.stats.spans.size ? `; spans (http/json): ${spanCounts(sink.stats)}` : ''}\n\n`,
    );
    report(
      variants.map((v) => v.label),
      apps,
      rounds,
    );
  });
}
