// Baseline for bench-events-http.ts: node:http + pg doing the work the two event routes must do, no framework.
//  GET  /events?...  the HS256 user token check, the query parsed, then the app's ONE list statement (total, page,
//                    files; copied from libs/events/src/lib/repositories/event-list.statement.ts) and the same JSON;
//  POST /events      the token check, JSON body, the same INSERT ... RETURNING, the same JSON (201).
// It trusts its input (no validation): the bench sends valid requests only, so the gap is the framework's cost.
import { createHmac, createSecretKey, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import jwt from 'jsonwebtoken';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const projectId = process.env.PROJECT_ID;
// A KeyObject: given bytes, jsonwebtoken first tries (and fails) to read them as a PEM key on every call.
const accessKey = createSecretKey(
  createHmac('sha256', process.env.COMMUNITY_AUTH_SECRET).update('community:access-token').digest(),
);

const COLUMNS = `e.id, e.project_id AS "projectId", e.user_id AS "userId", e.title, e.description, e.start_time AS "startTime",
  e.end_time AS "endTime", e.timezone, e.type, e.url, e.venue_name AS "venueName", e.address, e.location, e.space_id AS "spaceId",
  e.visibility, e.status, e.allow_maybe AS "allowMaybe", e.guest_list_visible AS "guestListVisible", e.capacity, e.host_ids AS "hostIds",
  e.metadata, e.going_count AS "goingCount", e.maybe_count AS "maybeCount", e.not_going_count AS "notGoingCount",
  e.created_at AS "createdAt", e.updated_at AS "updatedAt"`;
const FILES = `(SELECT json_agg(json_build_object('id', f.id, 'projectId', f.project_id, 'eventId', f.event_id, 'role', f.role,
    'position', f.position, 'originalName', f.original_name, 'original', f.original, 'variants', f.variants, 'metadata', f.metadata,
    'createdAt', to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY f.role <> 'cover', f.position)
  FROM "community"."event_files" f WHERE f.event_id = e.id AND f.project_id = e.project_id) AS files`;
const visible = (user) => `(e.visibility = 'public' OR ${user}::text = ANY(e.host_ids)
  OR EXISTS (SELECT 1 FROM "community"."event_rsvps" r WHERE r.event_id = e.id AND r.user_id = ${user}::uuid)
  OR (e.visibility = 'members' AND EXISTS (SELECT 1 FROM "community"."space_members" m
      WHERE m.space_id = e.space_id AND m.project_id = e.project_id AND m.user_id = ${user}::uuid AND m.status = 'active')))`;

function listStatement(viewer, q) {
  const parameters = [projectId];
  const bind = (value) => `$${parameters.push(value)}`;
  const where = ['e.project_id = $1'];
  if (q.from) where.push(`e.start_time >= ${bind(q.from)}`);
  if (q.to) where.push(`e.start_time < ${bind(q.to)}`);
  let distance = '';
  if (q.near) {
    const point = `"community"."geo_point"(${bind(q.near.latitude)}::float8, ${bind(q.near.longitude)}::float8)`;
    const radius = `${bind(q.near.radius)}::float8`;
    where.push(
      `public.earth_box(${point}, ${radius}) @> e.earth_point AND public.earth_distance(${point}, e.earth_point) <= ${radius}`,
    );
    distance = `public.earth_distance(${point}, e.earth_point)`;
  }
  const user = bind(viewer);
  where.push(visible(`${user}`));
  const sortKey = q.sortBy === 'distance' ? distance : 'e.start_time';
  const text = `WITH matched AS MATERIALIZED (SELECT e.id, ${sortKey} AS sort_key FROM "community"."events" e WHERE ${where.join(' AND ')})
    SELECT c.total, p.* FROM (SELECT count(*)::int AS total FROM matched) c
    LEFT JOIN LATERAL (SELECT ${COLUMNS}, ${FILES}
      FROM (SELECT id, sort_key FROM matched ORDER BY sort_key, id OFFSET ${bind((q.page - 1) * q.limit)} LIMIT ${bind(q.limit)}) page
      JOIN "community"."events" e ON e.id = page.id ORDER BY page.sort_key, page.id) p ON true`;
  return { text, values: parameters };
}

const iso = (date) => (date ? new Date(date).toISOString() : null);
const image = (stored) => ({
  url: `/files/${stored.key}`,
  width: stored.width,
  height: stored.height,
  size: stored.size,
  format: stored.format,
});
const fileView = (f) => ({
  id: f.id,
  role: f.role,
  position: f.position,
  originalName: f.originalName,
  original: image(f.original),
  variants: Object.fromEntries(Object.entries(f.variants).map(([name, stored]) => [name, image(stored)])),
  metadata: f.metadata,
  createdAt: f.createdAt,
});
const eventView = (e) => ({
  id: e.id,
  projectId: e.projectId,
  userId: e.userId,
  title: e.title,
  description: e.description,
  startTime: iso(e.startTime),
  endTime: iso(e.endTime),
  timezone: e.timezone,
  type: e.type,
  url: e.url,
  venueName: e.venueName,
  address: e.address,
  location: e.location,
  spaceId: e.spaceId,
  visibility: e.visibility,
  status: e.status,
  allowMaybe: e.allowMaybe,
  guestListVisible: e.guestListVisible,
  capacity: e.capacity,
  hostIds: e.hostIds,
  metadata: e.metadata,
  rsvpCounts: { going: e.goingCount, maybe: e.maybeCount, not_going: e.notGoingCount },
  ...(e.files ? { files: e.files.map(fileView) } : {}),
  createdAt: iso(e.createdAt),
  updatedAt: iso(e.updatedAt),
});

async function list(viewer, search) {
  const number = (name, fallback) => (search.has(name) ? Number(search.get(name)) : fallback);
  const q = {
    page: number('page', 1),
    limit: number('limit', 20),
    from: search.get('from') && new Date(search.get('from')),
    to: search.get('to') && new Date(search.get('to')),
    sortBy: search.get('sortBy') ?? 'startTime',
  };
  if (search.has('radius'))
    q.near = { latitude: number('latitude'), longitude: number('longitude'), radius: number('radius') };
  const { rows } = await pool.query(listStatement(viewer, q));
  const total = rows[0]?.total ?? 0;
  const data = rows.length === 1 && rows[0].id === null ? [] : rows.map(eventView);
  return [
    200,
    {
      data,
      pagination: {
        page: q.page,
        pageSize: q.limit,
        totalPages: Math.ceil(total / q.limit),
        totalItems: total,
        hasMore: q.page * q.limit < total,
      },
    },
  ];
}

async function create(viewer, body) {
  const location = body.location
    ? JSON.stringify({ type: 'Point', coordinates: [body.location.longitude, body.location.latitude] })
    : null;
  const { rows } = await pool.query(
    `INSERT INTO "community"."events" AS e (id, project_id, user_id, title, description, start_time, end_time, timezone, type, url, venue_name, address,
       location, space_id, visibility, allow_maybe, guest_list_visible, capacity, host_ids, metadata)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
     RETURNING ${COLUMNS}`,
    [
      randomUUID(),
      projectId,
      viewer,
      body.title,
      body.description ?? null,
      new Date(body.startTime),
      body.endTime ? new Date(body.endTime) : null,
      body.timezone ?? null,
      body.type,
      body.url ?? null,
      body.venueName ?? null,
      body.address ?? null,
      location,
      body.spaceId ?? null,
      body.visibility ?? 'public',
      body.allowMaybe ?? true,
      body.guestListVisible ?? true,
      body.capacity ?? null,
      [...new Set([viewer, ...(body.hostIds ?? [])])],
      JSON.stringify(body.metadata ?? {}),
    ],
  );
  return [201, eventView(rows[0])];
}

const readBody = (request) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    request.on('data', (c) => chunks.push(c));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
const send = (response, status, body) => {
  const json = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  response.end(json);
};

const server = createServer(async (request, response) => {
  try {
    const url = new URL(request.url, 'http://raw');
    if (url.pathname !== '/events') return send(response, 404, { error: 'Not Found', code: 'route/not-found' });
    let viewer;
    try {
      viewer = jwt.verify((request.headers.authorization ?? '').replace(/^Bearer /, ''), accessKey, {
        algorithms: ['HS256'],
        audience: projectId,
        issuer: 'community-api',
      }).sub;
    } catch {
      return send(response, 403, { error: 'forbidden', code: 'auth/forbidden' });
    }
    if (request.method === 'GET') return send(response, ...(await list(viewer, url.searchParams)));
    return send(response, ...(await create(viewer, JSON.parse(await readBody(request)))));
  } catch (error) {
    send(response, 500, { error: String(error) });
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
