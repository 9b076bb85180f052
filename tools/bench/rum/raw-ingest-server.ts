/**
 * The raw baseline of bench-http.ts: POST /rum/ingest/errors on node:http + pg, no framework, doing the work the
 * route must do and nothing else:
 *  - read the body (5 MB cap), JSON.parse, the batch shape check (object with only `events`, 1..1000 objects);
 *  - the client token's SHA-256 digest and the same token → application + rule_set_version SELECT per request;
 *  - the same compiled matcher (`compileRuleSet` of @acme/rum), compiled once per rule-set version from the same
 *    snapshot row;
 *  - the same two statements: the json_array_elements INSERT into the partitioned rum.error_events (payload text
 *    through the same `toPostgresJson`) and the per-rule discarded_count UPDATE (rows locked in id order);
 *  - the same answer `{request_id, data: {accepted, dropped}}` with a request id.
 * Not done here (the app does it): request logging, metrics, the failure envelopes' detail, Redis pub/sub.
 * Same pool size as the app (10). Run with `-r @swc-node/register` (it imports the lib's TypeScript).
 */
import { createHash, randomUUID } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'pg';
import { compileRuleSet, CompiledMatcher, MatchableRule } from '../../../libs/rum/src/lib/matcher';
import { toPostgresJson } from '../../../libs/rum/src/lib/text';

const pool = new Pool({ connectionString: process.env['DATABASE_URL'], max: Number(process.env['POOL_SIZE'] ?? 10) });
const BODY_LIMIT = 5 * 1024 * 1024;
const MAX_EVENTS = 1000;
const MAX_EVENT_MS = 7_258_118_400_000;
const matchers = new Map<string, { version: number; matcher: CompiledMatcher }>();

// Its own copy on purpose: the baseline takes no platform (framework-side) code, only the lib's matcher.
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function send(response: ServerResponse, status: number, requestId: string, payload: object): void {
  const json = JSON.stringify({ request_id: requestId, ...payload });
  response.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
    'service-request-id': requestId,
  });
  response.end(json);
}
const fail = (response: ServerResponse, status: number, requestId: string, code: string, message: string) =>
  send(response, status, requestId, { error: { code, message } });

async function matcherFor(applicationId: string, version: number): Promise<CompiledMatcher> {
  const cached = matchers.get(applicationId);
  if (cached && cached.version >= version) return cached.matcher;
  let rules: MatchableRule[] = [];
  if (version > 0) {
    // A snapshot references rule versions (libs/rum rule-set-snapshots.repository.ts).
    const { rows } = await pool.query(
      `SELECT v."rule_id" AS "id", v."status", v."filters" FROM "rum"."rule_set_snapshots" s
         CROSS JOIN unnest(s."rule_ids", s."rule_versions") WITH ORDINALITY AS ref("rule_id", "rule_version", "n")
         JOIN "rum"."rule_versions" v
           ON v."application_id" = s."application_id" AND v."rule_id" = ref."rule_id" AND v."rule_version" = ref."rule_version"
        WHERE s."application_id" = $1 AND s."version" = $2 ORDER BY ref."n"`,
      [applicationId, version],
    );
    rules = rows;
  }
  const matcher = compileRuleSet(rules);
  matchers.set(applicationId, { version, matcher });
  return matcher;
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= BODY_LIMIT) chunks.push(chunk);
    });
    request.on('end', () => resolve(size > BODY_LIMIT ? undefined : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

async function ingest(request: IncomingMessage, response: ServerResponse, requestId: string): Promise<void> {
  const token = request.headers['x-rum-client-token'];
  if (typeof token !== 'string' || token.length > 256)
    return fail(response, 401, requestId, 'Unauthorized', 'invalid client token');
  const text = await readBody(request);
  if (text === undefined) return fail(response, 413, requestId, 'InvalidParameter', 'body too large');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return fail(response, 400, requestId, 'InvalidParameter', 'malformed JSON');
  }
  const { rows } = await pool.query(
    `SELECT a."id", a."rule_set_version" FROM "rum"."client_tokens" t JOIN "rum"."applications" a ON a."id" = t."application_id" WHERE t."token_digest" = $1`,
    [createHash('sha256').update(token).digest('hex')],
  );
  if (!rows[0]) return fail(response, 401, requestId, 'Unauthorized', 'invalid client token');
  const events = isPlainObject(body) && Object.keys(body).length === 1 ? body['events'] : undefined;
  if (!Array.isArray(events) || events.length < 1 || events.length > MAX_EVENTS || !events.every(isPlainObject)) {
    return fail(response, 400, requestId, 'InvalidParameter', 'events must be an array of 1 to 1000 objects');
  }
  const applicationId: string = rows[0].id;
  const matcher = await matcherFor(applicationId, rows[0].rule_set_version);
  const now = Date.now();
  const kept: { t: number; p: Record<string, unknown> }[] = [];
  const dropped = new Map<string, number>();
  for (const event of events as Record<string, unknown>[]) {
    const slot = matcher.match(event);
    if (slot === -1) {
      const date = event['date'];
      kept.push({
        t: typeof date === 'number' && Number.isFinite(date) && date >= 0 && date <= MAX_EVENT_MS ? date : now,
        p: event,
      });
    } else {
      const id = matcher.ruleIds[slot];
      dropped.set(id, (dropped.get(id) ?? 0) + 1);
    }
  }
  if (kept.length > 0) {
    await pool.query(
      `INSERT INTO "rum"."error_events" ("application_id", "occurred_at", "payload")
       SELECT $1, to_timestamp((e->>'t')::float8 / 1000), e->'p' FROM json_array_elements($2::json) AS e`,
      [applicationId, toPostgresJson(kept)],
    );
  }
  if (dropped.size > 0) {
    const sorted = [...dropped].sort(([a], [b]) => (a < b ? -1 : 1));
    await pool.query(
      `WITH c AS (SELECT * FROM unnest($2::varchar[], $3::bigint[]) AS c("id", "n")),
            locked AS (SELECT r."id" FROM "rum"."rules" r JOIN c ON c."id" = r."id" WHERE r."application_id" = $1 ORDER BY r."id" FOR UPDATE OF r)
       UPDATE "rum"."rules" r SET "discarded_count" = r."discarded_count" + c."n" FROM c, locked WHERE r."id" = c."id" AND locked."id" = r."id"`,
      [applicationId, sorted.map(([id]) => id), sorted.map(([, n]) => n)],
    );
  }
  send(response, 200, requestId, { data: { accepted: kept.length, dropped: events.length - kept.length } });
}

createServer((request, response) => {
  const requestId = randomUUID();
  if (request.method !== 'POST' || request.url !== '/rum/ingest/errors')
    return fail(response, 404, requestId, 'InvalidParameter', 'not found');
  ingest(request, response, requestId).catch(() => fail(response, 500, requestId, 'InternalError', 'internal error'));
}).listen(Number(process.env['PORT']), '127.0.0.1', () => process.stdout.write('listening\n'));
