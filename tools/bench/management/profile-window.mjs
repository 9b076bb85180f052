// Reads a V8 .cpuprofile over one time window only (e.g. one route's app run in a bench that loads several routes
// in turn): busy samples per second counted back from the end, then self time by package/file and the inclusive
// time of the functions matching a pattern, as shares of the window's busy samples.
//   node tools/bench/management/profile-window.mjs <file.cpuprofile>                       (busy samples per second from the end)
//   node tools/bench/management/profile-window.mjs <file.cpuprofile> <from-end-s> <to-end-s> [top=40] [inclusive-regex]
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const duration = profile.endTime - profile.startTime;
const isIdle = (id) => byId.get(id).callFrame.functionName === '(idle)';
const short = (url) => url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(apps|libs|tools)\//, '$1/');

if (process.argv[3] === undefined) {
  const perSecond = new Map();
  let t = 0;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i];
    if (isIdle(id)) return;
    const second = Math.floor((duration - t) / 1e6);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  });
  console.log(
    [...perSecond]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}s:${n}`)
      .join(' '),
  );
  process.exit(0);
}

const [from, to] = [Number(process.argv[3]) * 1e6, Number(process.argv[4]) * 1e6];
const top = Number(process.argv[5] ?? 40);
const pattern = process.argv[6] ? new RegExp(process.argv[6]) : undefined;
const counts = new Map();
let busy = 0;
let t = 0;
profile.samples.forEach((id, i) => {
  t += profile.timeDeltas[i];
  if (t < duration - from || t > duration - to || isIdle(id)) return;
  busy += 1;
  counts.set(id, (counts.get(id) ?? 0) + 1);
});
const fileOf = (node) => {
  const { url, functionName } = node.callFrame;
  if (url.includes('node_modules/')) return url.replace(/^.*node_modules\/((@[^/]+\/)?[^/]+).*$/, '$1');
  return url ? short(url) : functionName;
};
const keyOf = (node) =>
  `${node.callFrame.functionName || '(anonymous)'} ${short(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
const byFile = new Map();
const inclusive = new Map();
for (const [id, n] of counts) {
  const file = fileOf(byId.get(id));
  byFile.set(file, (byFile.get(file) ?? 0) + n);
  const seen = new Set();
  for (let cur = id; cur !== undefined; cur = parent.get(cur)) {
    const key = keyOf(byId.get(cur));
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + n);
  }
}
const share = (n) => `${((100 * n) / busy).toFixed(1).padStart(5)}%`;
console.log(`${busy} busy samples in the window`);
console.log('\nself time by package / file');
for (const [file, n] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(share(n), file);
if (pattern) {
  console.log(`\ninclusive time of functions matching ${pattern}`);
  for (const [key, n] of [...inclusive]
    .filter(([key]) => pattern.test(key))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top))
    console.log(share(n), key);
}
