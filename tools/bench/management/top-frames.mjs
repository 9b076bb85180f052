// Reads a V8 .cpuprofile: heaviest functions by self time, by package/file, and (with a pattern) the
// inclusive time of the functions whose "name file" matches it.
//   node tools/bench/management/top-frames.mjs <file.cpuprofile> [top=40] [inclusive-regex] [skip-seconds]
// skip-seconds ignores the first seconds of the profile (start-up, module loading); negative: keep only the last seconds.
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const top = Number(process.argv[3] ?? 40);
const pattern = process.argv[4] ? new RegExp(process.argv[4]) : undefined;
const skipArg = Number(process.argv[5] ?? 0) * 1e6;
const skipUs = skipArg >= 0 ? skipArg : profile.endTime - profile.startTime + skipArg;
const counts = new Map();
let elapsed = 0;
let kept = 0;
profile.samples.forEach((sample, index) => {
  elapsed += profile.timeDeltas[index];
  if (elapsed < skipUs) return;
  kept += 1;
  counts.set(sample, (counts.get(sample) ?? 0) + 1);
});
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const keyOf = (node) => {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url
    .replace(/^.*node_modules\//, '')
    .replace(/^file:\/\/.*\/work\/main\//, '')
    .replace(/^\/work\/main\//, '');
  return { key: `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`, file };
};
const idle = profile.nodes
  .filter((n) => n.callFrame.functionName === '(idle)')
  .reduce((sum, n) => sum + (counts.get(n.id) ?? 0), 0);
const total = kept - idle;
const self = new Map();
const byFile = new Map();
for (const node of profile.nodes) {
  const hits = counts.get(node.id) ?? 0;
  if (!hits || node.callFrame.functionName === '(idle)') continue;
  const { key, file } = keyOf(node);
  self.set(key, (self.get(key) ?? 0) + hits);
  const pkg = file.startsWith('@')
    ? file.split('/').slice(0, 2).join('/')
    : file.split('/')[0] || node.callFrame.functionName;
  byFile.set(pkg, (byFile.get(pkg) ?? 0) + hits);
}
const print = (title, map, n) => {
  console.log(`\n${title} (% of ${total} busy samples)`);
  for (const [key, hits] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n))
    console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
};
print('self time by function', self, top);
print('self time by package / file', byFile, 25);
if (pattern) {
  // Inclusive: samples under a matching frame, counted once per sample even under recursion.
  const parent = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const inclusive = new Map();
  for (const node of profile.nodes) {
    const hits = counts.get(node.id) ?? 0;
    if (!hits) continue;
    const seen = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const { key } = keyOf(byId.get(id));
      if (pattern.test(key) && !seen.has(key)) {
        seen.add(key);
        inclusive.set(key, (inclusive.get(key) ?? 0) + hits);
      }
    }
  }
  print(`inclusive time of frames matching ${pattern}`, inclusive, top);
}
