// Prints the heaviest functions of a V8 .cpuprofile by self time, and by package/file.
import { readFileSync } from 'node:fs';

const profile = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const top = Number(process.argv[3] ?? 40);
const self = new Map();
const byFile = new Map();
const counts = new Map();
for (const sample of profile.samples) counts.set(sample, (counts.get(sample) ?? 0) + 1);
const total = profile.samples.length;
for (const node of profile.nodes) {
  const hits = counts.get(node.id) ?? 0;
  if (!hits) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/work\/main\//, '');
  const key = `${functionName || '(anonymous)'} ${file}:${lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + hits);
  const pkg = file.startsWith('@') ? file.split('/').slice(0, 2).join('/') : file.split('/')[0] || functionName;
  byFile.set(pkg, (byFile.get(pkg) ?? 0) + hits);
}
const print = (title, map, n) => {
  console.log(`\n${title}`);
  for (const [key, hits] of [...map].sort((a, b) => b[1] - a[1]).slice(0, n)) console.log(`${((hits / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
};
print('self time by function', self, top);
print('self time by package / file', byFile, 25);
