/**
 * community-api event routes under load, each beside a raw node:http + pg handler doing the same SQL in the
 * same run (tools/bench/community-events/raw-events-server.mjs), as a user (the visibility rules apply):
 *  - list:   GET .../events?from&to&limit=20, a 7-day window of a year of events (the total counted every time);
 *  - search: GET .../events?latitude&longitude&radius=2000&sortBy=distance&limit=20;
 *  - create: POST .../events, a JSON body (physical event with a location, no images).
 * Each round runs raw then app; the verdict is the median of the paired per-round ratios.
 *
 *   node -r @swc-node/register tools/bench/community-events/bench-events-http.ts [--events 200000] [--duration 5] [--rounds 3] [--connections 32] [--only list|radius|create] [--profile] [--explain]
 *
 * Starts both servers as child processes on a fresh database (DATABASE_URL's server) and Redis prefix, seeds
 * the events with SQL, checks both answer the same bytes, and removes everything afterwards.
 */
import { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { listEventsStatement } from '@acme/events';
import { benchRedisPrefix, createBenchDatabase, deleteRedisPrefix, REDIS_URL } from '../support/database';
import { fetchJson, Figures, jsonPosts, measure } from '../support/load';
import {
  freePort,
  localUrl,
  numberArg,
  Processes,
  SERVICE_NODE_FLAGS,
  tsEntry,
  waitForHealth,
  waitUntil,
} from '../support/processes';
import { machineLine, markdownTable, median } from '../support/report';

const EVENTS = numberArg('events', 200_000);
const DURATION = numberArg('duration', 5);
const ROUNDS = numberArg('rounds', 3);
const CONNECTIONS = numberArg('connections', 32);
const PROFILE = process.argv.includes('--profile');
const EXPLAIN = process.argv.includes('--explain');
/** `--only list|search|create`: one scenario (for profiles). */
const ONLY = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const SECRET = randomBytes(32).toString('hex');
const ADMIN_TOKEN = randomBytes(16).toString('hex');
const DAY = 86_400_000;
const processes = new Processes();

/** A year of events from tomorrow, around Paris (±0.25° lat, ±0.35° lng), 95% public, 5% invite-only of another host; 2% with a cover. */
async function seed(db: Client, projectId: string, userId: string, otherId: string): Promise<void> {
  for (let start = 0; start < EVENTS; start += 50_000) {
    await db.query(
      `INSERT INTO community.events (project_id, user_id, title, description, start_time, type, address, location, visibility, allow_maybe, guest_list_visible, host_ids, metadata)
       SELECT $1, $2::uuid, 'Meetup ' || g, 'Seeded event number ' || g, now() + interval '1 day' + (g % 365) * interval '1 day' + (g % 1440) * interval '1 minute',
              'physical', g || ' Rue de Bench',
              jsonb_build_object('type', 'Point', 'coordinates', jsonb_build_array(2.35 + (random() - 0.5) * 0.7, 48.85 + (random() - 0.5) * 0.5)),
              CASE WHEN g % 20 = 0 THEN 'invite' ELSE 'public' END, true, true,
              CASE WHEN g % 20 = 0 THEN ARRAY[$3::text] ELSE ARRAY[$2::text] END, '{"source":"bench"}'
       FROM generate_series($4::int, $5::int) g`,
      [projectId, userId, otherId, start + 1, Math.min(EVENTS, start + 50_000)],
    );
  }
  const image = (name: string, size: number) =>
    `jsonb_build_object('key', e.project_id || '/events/' || e.id || '/${name}.jpg', 'width', ${size}, 'height', ${size}, 'size', ${size * 40}, 'format', 'jpeg')`;
  await db.query(
    `INSERT INTO community.event_files (project_id, event_id, role, position, original_name, original, variants, metadata)
     SELECT e.project_id, e.id, 'cover', 0, 'cover.jpg', ${image('original', 1600)},
            jsonb_build_object('small', ${image('small', 320)}, 'medium', ${image('medium', 1024)}),
            '{"originalFormat":"jpeg","originalSize":640000,"exifStripped":true,"processingTime":40}'
     FROM community.events e WHERE e.project_id = $1 AND random() < 0.02`,
    [projectId],
  );
  await db.query('VACUUM ANALYZE community.events');
  await db.query('ANALYZE community.event_files');
}

/** `--explain`: the plans of the two read statements (what bounds the reads is in PostgreSQL, not in Node). */
async function explain(db: Client, projectId: string, viewer: string): Promise<void> {
  const from = new Date(Date.now() + 30 * DAY);
  const base = {
    page: 1,
    limit: 20,
    from: null,
    to: null,
    type: null,
    visibility: null,
    status: null,
    spaceId: null,
    userId: null,
    hostId: null,
    near: null,
    sortBy: 'startTime' as const,
  };
  for (const query of [
    { ...base, from, to: new Date(from.getTime() + 7 * DAY) },
    { ...base, near: { latitude: 48.85, longitude: 2.35, radius: 2000 }, sortBy: 'distance' as const },
  ]) {
    const { text, parameters } = listEventsStatement(projectId, viewer, query);
    const plan = await db.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, parameters);
    process.stderr.write(`\n${plan.rows.map((row) => row['QUERY PLAN']).join('\n')}\n`);
  }
}

interface Scenario {
  name: string;
  /** The path after each server's events base, and the request shape. */
  path: string;
  post?: () => string;
}

async function main(): Promise<void> {
  const database = await createBenchDatabase('bench_events_http');
  const prefix = benchRedisPrefix('bench:events-http');
  const work = mkdtempSync(join(tmpdir(), 'bench-events-http-'));
  try {
    const [appPort, rawPort] = [await freePort(), await freePort()];
    const appBase = localUrl(appPort);
    const nodeFlags = [...SERVICE_NODE_FLAGS, ...(PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${work}/profile`] : [])];
    const app: ChildProcess = processes.start([...nodeFlags, ...tsEntry('apps/community-api/src/main.ts')], {
      PORT: String(appPort),
      DATABASE_URL: database.url,
      REDIS_URL,
      REDIS_PREFIX: prefix,
      LOG_LEVEL: 'warn',
      ADMIN_TOKEN,
      COMMUNITY_AUTH_SECRET: SECRET,
      STORAGE_DIR: join(work, 'storage'),
      UPLOAD_TMP_DIR: work,
    });
    await waitForHealth(appBase, 'the community API', 180_000);
    const project = await fetchJson(
      `${appBase}/admin/v1/projects`,
      { name: 'bench', bundles: ['files-images', 'spaces'] },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    const api = `${appBase}/api/v6/${project.id}/api/v7`;
    const session = await fetchJson(`${api}/auth/sign-up`, {
      email: 'bench@example.com',
      password: 'bench password 123',
    });
    const other = await fetchJson(`${api}/auth/sign-up`, { email: 'host@example.com', password: 'bench password 123' });
    const subject = (token: string) =>
      JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sub as string;
    const token: string = session.accessToken;
    const db = new Client({ connectionString: database.url });
    await db.connect();
    const seedStarted = Date.now();
    try {
      await seed(db, project.id, subject(token), subject(other.accessToken));
      if (EXPLAIN) await explain(db, project.id, subject(token));
    } finally {
      await db.end();
    }
    process.stderr.write(`seeded ${EVENTS} events in ${((Date.now() - seedStarted) / 1000).toFixed(1)} s\n`);

    const raw: ChildProcess = processes.start(
      [...SERVICE_NODE_FLAGS, 'tools/bench/community-events/raw-events-server.mjs'],
      {
        PORT: String(rawPort),
        DATABASE_URL: database.url,
        PROJECT_ID: project.id,
        COMMUNITY_AUTH_SECRET: SECRET,
      },
    );
    const rawBase = localUrl(rawPort);
    await waitUntil(async () => (await fetch(`${rawBase}/nothing`)).status === 404, 'the raw handler');

    const from = new Date(Date.now() + 30 * DAY);
    const window = `from=${from.toISOString()}&to=${new Date(from.getTime() + 7 * DAY).toISOString()}&limit=20`;
    let n = 0;
    // Created events start two years out and lie near Lyon, outside the list window and the search radius.
    const createBody = () =>
      JSON.stringify({
        title: `Bench create ${n++}`,
        description: 'Created under load',
        startTime: new Date(Date.now() + 730 * DAY).toISOString(),
        type: 'physical',
        address: '1 Place Bellecour',
        location: { latitude: 45.76, longitude: 4.83 },
        capacity: 50,
        hostIds: [],
        metadata: { source: 'bench' },
      });
    const scenarios: Scenario[] = [
      { name: `list: GET ?${window.replace(/&limit=20$/, '')} (7-day window), limit 20`, path: `?${window}` },
      {
        name: 'radius search: GET ?latitude=48.85&longitude=2.35&radius=2000&sortBy=distance, limit 20',
        path: '?latitude=48.85&longitude=2.35&radius=2000&sortBy=distance&limit=20',
      },
      { name: 'create: POST JSON (physical, location, no images)', path: '', post: createBody },
    ];
    const auth = { authorization: `Bearer ${token}` };

    // Equal answers before any load: the same bytes for the reads, the same event (but id and timestamps) for a create.
    for (const scenario of scenarios.filter((s) => !s.post)) {
      const [a, r] = await Promise.all(
        [`${api}/events${scenario.path}`, `${rawBase}/events${scenario.path}`].map(async (url) =>
          (await fetch(url, { headers: auth })).text(),
        ),
      );
      if (a !== r)
        throw new Error(
          `${scenario.name}: the app and the raw handler answer differently\napp ${a.slice(0, 400)}\nraw ${r.slice(0, 400)}`,
        );
      const page = JSON.parse(a);
      process.stderr.write(
        `${scenario.name}: ${page.data.length} of ${page.pagination.totalItems}, ${a.length} bytes, equal\n`,
      );
    }
    const body = createBody();
    const strip = (event: Record<string, unknown>) => ({
      ...event,
      id: undefined,
      createdAt: undefined,
      updatedAt: undefined,
    });
    const [createdApp, createdRaw] = await Promise.all([
      fetchJson(`${api}/events`, JSON.parse(body), auth),
      fetchJson(`${rawBase}/events`, JSON.parse(body), auth),
    ]);
    if (JSON.stringify(strip(createdApp)) !== JSON.stringify(strip(createdRaw)))
      throw new Error(`create answers differ\n${JSON.stringify(createdApp)}\n${JSON.stringify(createdRaw)}`);

    const run = (label: string, server: ChildProcess, url: string, scenario: Scenario, warmUp: number) =>
      measure(
        label,
        {
          url,
          connections: CONNECTIONS,
          timeout: 30,
          headers: auth,
          ...(scenario.post ? { method: 'POST', requests: jsonPosts(scenario.post, () => auth) } : {}),
        },
        { duration: DURATION, warmUp, server },
      );

    const out = process.stdout;
    out.write(
      `\n${machineLine()}; ${EVENTS} events seeded; ${CONNECTIONS} connections, ${DURATION} s per run, ${ROUNDS} rounds (raw then app each round)\n`,
    );
    for (const scenario of scenarios.filter((s) => !ONLY || s.name.startsWith(ONLY))) {
      const rows: Array<Array<string | number>> = [];
      const ratios = { rps: [] as number[], p99: [] as number[], cpu: [] as number[] };
      for (let round = 0; round < ROUNDS; round += 1) {
        const warmUp = round === 0 ? 2 : 0;
        const r: Figures = await run('raw', raw, `${rawBase}/events${scenario.path}`, scenario, warmUp);
        const a: Figures = await run('app', app, `${api}/events${scenario.path}`, scenario, warmUp);
        const rps = a.rps / r.rps;
        const p99 = a.p99 / r.p99;
        const cpu = (a.cpuMsPerRequest as number) / (r.cpuMsPerRequest as number);
        ratios.rps.push(rps);
        ratios.p99.push(p99);
        ratios.cpu.push(cpu);
        rows.push([
          round + 1,
          r.rps.toFixed(0),
          a.rps.toFixed(0),
          rps.toFixed(2),
          r.p99,
          a.p99,
          p99.toFixed(2),
          (r.cpuMsPerRequest as number).toFixed(2),
          (a.cpuMsPerRequest as number).toFixed(2),
          r.errors + a.errors,
        ]);
      }
      out.write(`\n${scenario.name}\n\n`);
      out.write(
        markdownTable(
          [
            'round',
            'raw req/s',
            'app req/s',
            'req/s ratio',
            'raw p99 ms',
            'app p99 ms',
            'p99 ratio',
            'raw CPU ms/req',
            'app CPU ms/req',
            'non-2xx/errors',
          ],
          rows,
        ),
      );
      out.write(
        `\nmedian of paired ratios: req/s ${median(ratios.rps).toFixed(2)} (target >= 0.8), p99 ${median(ratios.p99).toFixed(2)} (target <= 1.5), server CPU per request ${median(ratios.cpu).toFixed(2)}\n`,
      );
    }
  } finally {
    await processes.stopAll();
    await database.drop();
    await deleteRedisPrefix(prefix);
    if (PROFILE) process.stderr.write(`profiles kept in ${work}/profile\n`);
    else rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).stack ?? String(error)}\n`);
  processes.killAll();
  process.exitCode = 1;
});
