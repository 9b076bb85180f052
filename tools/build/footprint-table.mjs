// Writes the table of each service's runtime footprint into docs/deploying.md (between the footprint markers), so
// the figures there come from the generated packages and cannot drift: run after `npx nx run-many -t build`.
//   node tools/build/footprint-table.mjs          measure and write (installs each app's package from the npm cache)
//   node tools/build/footprint-table.mjs --check  exit 1 when the table's dependency counts differ from dist/
import { execFileSync } from 'node:child_process';
import { cpSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '../..');
const docPath = join(root, 'docs/deploying.md');
const START = '<!-- footprint:start (tools/build/footprint-table.mjs) -->';
const END = '<!-- footprint:end -->';
const apps = JSON.parse(readFileSync(join(root, 'tools/services.json'), 'utf8')).map((s) => s.name);

/** Bytes of every file under `dir` (apparent sizes, symlinks not followed). */
function treeBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += treeBytes(path);
    else total += lstatSync(path).size;
  }
  return total;
}

/** What the generated package says: direct dependencies and the packages its lockfile installs. */
export function counts(app) {
  const dist = join(root, 'dist/apps', app);
  const pkg = JSON.parse(readFileSync(join(dist, 'package.json'), 'utf8'));
  const lock = JSON.parse(readFileSync(join(dist, 'package-lock.json'), 'utf8'));
  return {
    direct: Object.keys(pkg.dependencies ?? {}).length,
    installed: Object.keys(lock.packages).filter((key) => key !== '').length,
  };
}

/** `npm ci --offline --omit=dev` of the app's package in a temp folder: installed node_modules MB. */
export function measureNodeModules(app) {
  const dir = mkdtempSync(join(tmpdir(), `footprint-${app}-`));
  try {
    cpSync(join(root, 'dist/apps', app, 'package.json'), join(dir, 'package.json'));
    cpSync(join(root, 'dist/apps', app, 'package-lock.json'), join(dir, 'package-lock.json'));
    execFileSync('npm', ['ci', '--offline', '--omit=dev', '--no-audit', '--no-fund', '--loglevel=error'], {
      cwd: dir,
      stdio: 'pipe',
      timeout: 180_000,
    });
    return treeBytes(join(dir, 'node_modules')) / 1e6;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows of the table now in docs/deploying.md: app → { direct, installed, nodeModulesMb, bundleMb }. */
export function documentedRows() {
  const text = readFileSync(docPath, 'utf8');
  const table = text.slice(text.indexOf(START), text.indexOf(END));
  const rows = {};
  for (const [, app, direct, installed, nodeModulesMb, bundleMb] of table.matchAll(
    /^\| `([\w-]+)` \| (\d+) \| (\d+) \| ([\d.]+) \| ([\d.]+) \|$/gm,
  ))
    rows[app] = {
      direct: Number(direct),
      installed: Number(installed),
      nodeModulesMb: Number(nodeModulesMb),
      bundleMb: Number(bundleMb),
    };
  return rows;
}

function write() {
  const lines = [
    START,
    '| service | direct dependencies | packages installed | `node_modules` MB | `app.js` MB |',
    '|---|---:|---:|---:|---:|',
  ];
  for (const app of apps) {
    const { direct, installed } = counts(app);
    const bundle = statSync(join(root, 'dist/apps', app, 'app.js')).size / 1e6;
    lines.push(
      `| \`${app}\` | ${direct} | ${installed} | ${measureNodeModules(app).toFixed(1)} | ${bundle.toFixed(1)} |`,
    );
  }
  lines.push(END);
  const text = readFileSync(docPath, 'utf8');
  const before = text.slice(0, text.indexOf(START));
  const after = text.slice(text.indexOf(END) + END.length);
  if (!text.includes(START) || !text.includes(END)) throw new Error(`${docPath} has no footprint markers`);
  writeFileSync(docPath, `${before}${lines.join('\n')}${after}`);
}

function check() {
  const rows = documentedRows();
  const drift = apps.filter((app) => {
    const { direct, installed } = counts(app);
    return rows[app]?.direct !== direct || rows[app]?.installed !== installed;
  });
  if (drift.length > 0) {
    process.stderr.write(
      `docs/deploying.md footprint table is stale for ${drift.join(', ')}: run ${process.argv[1]}\n`,
    );
    process.exit(1);
  }
}

if (process.argv[1] === import.meta.filename) (process.argv.includes('--check') ? check : write)();
