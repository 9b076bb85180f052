// Baseline for the list benchmark: node:http + pg, the same keyset query and JSON serialisation, no framework.
// RAW_PREPARED=1 runs the query as a named (prepared) statement, as the app does (default: unnamed, parsed and
// planned on every call).
import { createServer } from 'node:http';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
const PREPARED = process.env.RAW_PREPARED === '1';
const TEXT_DATES = process.env.RAW_TEXT_DATES === '1';
const COLUMNS = TEXT_DATES
  ? `"id", "resource", "consumer", "consumer_selector", "configuration", "created_at" AT TIME ZONE 'UTC' AS "created_text", "updated_at" AT TIME ZONE 'UTC' AS "updated_text"`
  : '"id", "resource", "consumer", "consumer_selector", "configuration", "created_at", "updated_at"';
// RAW_TEXT_DATES=1: timestamps kept as PostgreSQL's UTC text and written as ISO 8601 by slicing, as the app does.
// The aliases must not be the column names: ORDER BY "created_at" would then sort by the expression, not the index.
const types = { getTypeParser: (oid, format) => (oid === 1114 ? (text) => text : pg.types.getTypeParser(oid, format)) };
const iso = (text) =>
  `${text.slice(0, 10)}T${text.slice(11, 19)}.${text.length > 20 ? text.slice(20, 23).padEnd(3, '0') : '000'}Z`;

const server = createServer(async (request, response) => {
  try {
    const url = new URL(request.url, 'http://raw');
    if (url.pathname !== '/api/v2/rate-limit-policies') {
      response.writeHead(404).end();
      return;
    }
    const take = Number(url.searchParams.get('take') ?? 50);
    const text = `SELECT ${COLUMNS} FROM "management"."rate_limit_policies" ORDER BY "created_at", "id" LIMIT $1`;
    const { rows } = await pool.query({
      ...(PREPARED ? { name: 'list' } : {}),
      text,
      values: [take + 1],
      ...(TEXT_DATES ? { types } : {}),
    });
    const page = rows.slice(0, take).map((row) => ({
      id: row.id,
      resource: row.resource,
      consumer: row.consumer,
      consumer_selector: row.consumer_selector,
      configuration: row.configuration,
      created_at: TEXT_DATES ? iso(row.created_text) : row.created_at.toISOString(),
      updated_at: TEXT_DATES ? iso(row.updated_text) : row.updated_at.toISOString(),
    }));
    const body = { rate_limit_policies: page };
    if (rows.length > take) {
      const last = page[page.length - 1];
      body.next = Buffer.from(JSON.stringify([1, Date.parse(last.created_at), last.id])).toString('base64url');
    }
    const json = JSON.stringify(body);
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(json),
    });
    response.end(json);
  } catch (error) {
    response.writeHead(500).end(String(error));
  }
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => pool.end().then(() => process.exit(0))));
