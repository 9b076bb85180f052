/**
 * Where a community-api operation holds the event loop: runs it with the service under `--cpu-prof` and reports,
 * for each round's window, the longest stretch of main-thread samples that are not idle (the longest task the loop
 * ran without returning to libuv) and the functions that took most of it. On a loaded machine the /health figures
 * of bench-event-loop.ts include time the thread waited for a core; this says how much was the service's own work.
 *
 *   flock /tmp/heavy.lock node -r @swc-node/register tools/bench/event-loop/profile-operation.ts sign-up-20 [--rounds 3]
 *
 * The stretch is wall time between samples (1 ms apart), so a preempted thread still lengthens it; the CPU the
 * main thread used in the window (from /proc) is printed beside it. `--after-ms 3000` also profiles the 3 s after
 * each round.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { memoryBytes, numberArg, Processes, sleep } from '../support/processes';
import { machineLine } from '../support/report';
import { startCommunityApi } from './community-operations';
import { ServiceContext } from './operation';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const ROUNDS = numberArg('rounds', 3);
/** Also profile this long after each round: work the operation leaves behind (e.g. a collection when idle). */
const AFTER_MS = numberArg('after-ms', 0);
const IDLE = new Set(['(idle)']);
const log = (line: string) => process.stdout.write(`${line}\n`);

/** Main-thread CPU ms of a process so far: its first thread's utime + stime (/proc/<pid>/task/<pid>/stat). */
function mainThreadCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const label = (node: ProfileNode) =>
  `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*\/(node_modules|apps|libs)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;

/** The longest run of non-idle samples between `from` and `to` (µs, monotonic), and its top self-time frames. */
function longestTask(
  profile: CpuProfile,
  from: number,
  to: number,
): { ms: number; samples: number; atMs: number; top: string[] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  let time = profile.startTime;
  let best = { start: 0, end: 0, first: 0, last: 0 };
  let run: { start: number; first: number } | null = null;
  profile.samples.forEach((id, index) => {
    time += profile.timeDeltas[index] ?? 0;
    if (time < from || time > to) return;
    const busy = !IDLE.has(byId.get(id)?.callFrame.functionName ?? '');
    if (busy && !run) run = { start: time, first: index };
    if (!busy && run) {
      if (time - run.start > best.end - best.start)
        best = { start: run.start, end: time, first: run.first, last: index };
      run = null;
    }
  });
  const counts = new Map<string, number>();
  for (let index = best.first; index < best.last; index++) {
    const node = byId.get(profile.samples[index] as number) as ProfileNode;
    counts.set(label(node), (counts.get(label(node)) ?? 0) + 1);
  }
  const top = [...counts.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([name, samples]) => `${samples} × ${name}`);
  return { ms: (best.end - best.start) / 1000, samples: best.last - best.first, atMs: (best.start - from) / 1000, top };
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2).find((arg, i, all) => !arg.startsWith('--') && !all[i - 1]?.startsWith('--'));
  const profiles = mkdtempSync(join(tmpdir(), 'profile-operation-'));
  process.env['NODE_OPTIONS'] = `--cpu-prof --cpu-prof-interval 1000 --cpu-prof-dir ${profiles}`;
  const context: ServiceContext = { processes: new Processes(), cleanups: [] };
  const windows: Array<{ round: string; from: number; to: number; cpuMs: number; wallMs: number; rssMb: number }> = [];
  log(`${machineLine()}, ${ROUNDS} round(s) of ${wanted}`);
  try {
    const service = await startCommunityApi(context);
    delete process.env['NODE_OPTIONS'];
    const operation = service.operations.find((candidate) => candidate.name === wanted);
    if (!operation) throw new Error(`unknown operation ${wanted}; known: ${service.operations.map((o) => o.name)}`);
    const pid = context.processes.children[0]?.pid as number;
    for (let round = 1; round <= ROUNDS; round++) {
      await operation.prepare?.();
      await sleep(500);
      const cpuBefore = mainThreadCpuMs(pid);
      const from = Number(process.hrtime.bigint() / 1000n);
      await operation.run();
      const to = Number(process.hrtime.bigint() / 1000n);
      const cpuAfter = mainThreadCpuMs(pid);
      const rssMb = memoryBytes(pid, 'VmRSS') / 2 ** 20;
      windows.push({ round: `${round}`, from, to, cpuMs: cpuAfter - cpuBefore, wallMs: (to - from) / 1000, rssMb });
      if (AFTER_MS > 0) {
        await sleep(AFTER_MS);
        const end = Number(process.hrtime.bigint() / 1000n);
        const cpuMs = mainThreadCpuMs(pid) - cpuAfter;
        windows.push({
          round: `${round}, the ${AFTER_MS} ms after`,
          from: to,
          to: end,
          cpuMs,
          wallMs: (end - to) / 1000,
          rssMb: memoryBytes(pid, 'VmRSS') / 2 ** 20,
        });
      }
    }
  } finally {
    delete process.env['NODE_OPTIONS'];
    await context.processes.stopAll(20_000);
    for (const cleanup of context.cleanups) await cleanup().catch((error) => log(`cleanup failed: ${error}`));
  }
  const file = readdirSync(profiles).find((name) => name.endsWith('.cpuprofile'));
  if (!file) throw new Error(`no profile written in ${profiles}`);
  const profile = JSON.parse(readFileSync(join(profiles, file), 'utf8')) as CpuProfile;
  rmSync(profiles, { recursive: true, force: true });
  for (const window of windows) {
    const task = longestTask(profile, window.from, window.to);
    log(
      `round ${window.round}: ${window.wallMs.toFixed(0)} ms, main-thread CPU ${window.cpuMs.toFixed(0)} ms, longest task ${task.ms.toFixed(1)} ms (${task.samples} samples of 1 ms, from ${task.atMs.toFixed(0)} ms into the round); RSS at the end ${window.rssMb.toFixed(0)} MB`,
    );
    for (const line of task.top) log(`    ${line}`);
  }
  log(`${machineLine()} (after the run)`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
