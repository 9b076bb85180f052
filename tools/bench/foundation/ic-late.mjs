// Which property-access sites turn polymorphic or megamorphic late in one process and not in another, from V8's IC
// logs (docs/benchmarks/tracing-cost.md: "what tracing some requests costs all of them"). A site is the function (as
// V8's code log names it) and the source position; the code address of each IC event is resolved through the
// code-creation events. Logs from the tracing bench, e.g. a process sampling nothing beside one sampling 10 %:
//   BENCH_NODE_ARGS="--log-ic --logfile=/tmp/ic/ic-%p.log" node -r @swc-node/register \
//     tools/bench/community/bench-tracing.ts --ratios 0,0.1 --processes 1 --windows 1 --rounds 1 --duration 20 --warmup 40 --rate 200 --together
//   node tools/bench/foundation/ic-late.mjs <main isolate log of A> <main isolate log of B> [--after SECONDS]
// (a process with the span export worker writes two logs: the main isolate's is the larger). Prints, per log, when
// the late transitions happened (a burst is one event, such as new connections, not a steady cost), then the sites
// that went polymorphic (P) or megamorphic (N) after --after (default 40 s) in B and not in A.
import { readFileSync } from 'node:fs';

const [fileA, fileB] = process.argv.slice(2);
const afterArg = process.argv.indexOf('--after');
const afterUs = (afterArg > 0 ? Number(process.argv[afterArg + 1]) : 40) * 1e6;

/** Code objects sorted by address, each [start, end, name without its address suffix and tier mark]. */
function codeRanges(lines) {
  const ranges = [];
  for (const line of lines) {
    if (!line.startsWith('code-creation,')) continue;
    const fields = line.split(',');
    const start = parseInt(fields[4], 16);
    const name = fields
      .slice(6)
      .join(',')
      .replace(/,0x[0-9a-f]+,.*$/, '')
      .replace(/^JS:[~^+*']*/, '');
    ranges.push([start, start + Number(fields[5]), name]);
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

function functionAt(ranges, address) {
  let low = 0;
  let high = ranges.length - 1;
  let found;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (ranges[middle][0] <= address) [found, low] = [middle, middle + 1];
    else high = middle - 1;
  }
  return found !== undefined && address < ranges[found][1] ? ranges[found][2] : '?';
}

/** Late transitions into P or N: the set of sites, and how many happened in each second. */
function lateTransitions(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const ranges = codeRanges(lines);
  const sites = new Set();
  const perSecond = new Map();
  for (const line of lines) {
    const type = line.slice(0, line.indexOf(','));
    if (!type.endsWith('IC')) continue;
    // type, pc, time (µs), line, column, old state, new state, map, key, ...
    const [, pc, time, row, column, from, to] = line.split(',');
    if (Number(time) < afterUs || (to !== 'P' && to !== 'N') || from === to) continue;
    sites.add(`${type} ${functionAt(ranges, parseInt(pc, 16))} @${row}:${column} ${from}->${to}`);
    const second = Math.floor(Number(time) / 1e6);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  }
  return { sites, perSecond };
}

const a = lateTransitions(fileA);
const b = lateTransitions(fileB);
for (const [label, { perSecond }] of [
  ['A', a],
  ['B', b],
]) {
  const bursts = [...perSecond].sort((x, y) => x[0] - y[0]).map(([second, count]) => `${second} s: ${count}`);
  console.log(`${label}: late transitions by second: ${bursts.join(', ') || 'none'}`);
}
const onlyB = [...b.sites].filter((site) => !a.sites.has(site)).sort();
console.log(`\nsites turning P/N after ${afterUs / 1e6} s in B, not in A (${onlyB.length}):`);
for (const site of onlyB) console.log(`  ${site}`);
const onlyA = [...a.sites].filter((site) => !b.sites.has(site)).length;
console.log(`\nthe other way round: ${onlyA} sites`);
