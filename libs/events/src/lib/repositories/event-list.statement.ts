import { communityTable, COMMUNITY_SCHEMA } from '@acme/community-schema';
import type { ListEventsQuery } from '../event-query';

const EVENTS = communityTable('events');
const FILES = communityTable('event_files');
const RSVPS = communityTable('event_rsvps');
const SPACE_MEMBERS = communityTable('space_members');

/** Every column of an event, named as EventRecord's properties, so rows need no hydration. */
export const EVENT_COLUMNS = `e.id, e.project_id AS "projectId", e.user_id AS "userId", e.title, e.description, e.start_time AS "startTime",
  e.end_time AS "endTime", e.timezone, e.type, e.url, e.venue_name AS "venueName", e.address, e.location, e.space_id AS "spaceId",
  e.visibility, e.status, e.allow_maybe AS "allowMaybe", e.guest_list_visible AS "guestListVisible", e.capacity, e.host_ids AS "hostIds",
  e.metadata, e.going_count AS "goingCount", e.maybe_count AS "maybeCount", e.not_going_count AS "notGoingCount",
  e.created_at AS "createdAt", e.updated_at AS "updatedAt"`;

/**
 * An event's files as one JSON array (null when none), in the presenter's order, shaped as EventFile with
 * `createdAt` already the wire's ISO text: a correlated subquery on (event_id, role, position), not a round trip.
 */
const FILES_COLUMN = `(SELECT json_agg(json_build_object('id', f.id, 'projectId', f.project_id, 'eventId', f.event_id, 'role', f.role,
    'position', f.position, 'originalName', f.original_name, 'original', f.original, 'variants', f.variants, 'metadata', f.metadata,
    'createdAt', to_char(f.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) ORDER BY f.role <> 'cover', f.position)
  FROM ${FILES} f WHERE f.event_id = e.id AND f.project_id = e.project_id) AS files`;

/**
 * What a user may see: public events, events they host or RSVPed to, members events of their active spaces.
 * `asText` / `asUuid` are the viewer's id as SQL of those types (a placeholder with a cast).
 */
export const visibilityCondition = (
  asText: string,
  asUuid: string,
) => `(e.visibility = 'public' OR ${asText} = ANY(e.host_ids)
  OR EXISTS (SELECT 1 FROM ${RSVPS} r WHERE r.event_id = e.id AND r.user_id = ${asUuid})
  OR (e.visibility = 'members' AND EXISTS (SELECT 1 FROM ${SPACE_MEMBERS} m
      WHERE m.space_id = e.space_id AND m.project_id = e.project_id AND m.user_id = ${asUuid} AND m.status = 'active')))`;

/** A statement and its positional parameters. */
export interface Statement {
  text: string;
  parameters: unknown[];
}

/**
 * GET .../events as ONE statement: the total (the pagination block) and the page with its files. The LEFT
 * JOIN keeps one row (nulls) when the page is empty so the total still arrives. `viewer` null sees every
 * event of the project (service and master keys).
 */
export function listEventsStatement(projectId: string, viewer: string | null, query: ListEventsQuery): Statement {
  const parameters: unknown[] = [projectId];
  const bind = (value: unknown) => `$${parameters.push(value)}`;
  const where = ['e.project_id = $1'];
  if (query.from) where.push(`e.start_time >= ${bind(query.from)}`);
  if (query.to) where.push(`e.start_time < ${bind(query.to)}`);
  if (query.type) where.push(`e.type = ${bind(query.type)}`);
  if (query.visibility) where.push(`e.visibility = ${bind(query.visibility)}`);
  if (query.status) where.push(`e.status = ${bind(query.status)}`);
  if (query.spaceId) where.push(`e.space_id = ${bind(query.spaceId)}`);
  if (query.userId) where.push(`e.user_id = ${bind(query.userId)}`);
  if (query.hostId) where.push(`e.host_ids @> ARRAY[${bind(query.hostId)}::text]`);
  let distance = '';
  if (query.near) {
    const point = `"${COMMUNITY_SCHEMA}"."geo_point"(${bind(query.near.latitude)}::float8, ${bind(query.near.longitude)}::float8)`;
    const radius = `${bind(query.near.radius)}::float8`;
    // The GiST index answers the earth_box test; the exact distance trims the box's corners.
    where.push(
      `public.earth_box(${point}, ${radius}) @> e.earth_point AND public.earth_distance(${point}, e.earth_point) <= ${radius}`,
    );
    distance = `public.earth_distance(${point}, e.earth_point)`;
  }
  if (viewer !== null) {
    const user = bind(viewer);
    where.push(visibilityCondition(`${user}::text`, `${user}::uuid`));
  }
  const sortKey = query.sortBy === 'distance' && distance ? distance : 'e.start_time';
  // The matching rows are read once: their ids and sort keys feed both the count and the page, and only the
  // page's rows are fetched whole (a radius search otherwise visits every match's heap page twice).
  const text = `WITH matched AS MATERIALIZED (SELECT e.id, ${sortKey} AS sort_key FROM ${EVENTS} e WHERE ${where.join(' AND ')})
    SELECT c.total, p.* FROM (SELECT count(*)::int AS total FROM matched) c
    LEFT JOIN LATERAL (SELECT ${EVENT_COLUMNS}, ${FILES_COLUMN}
      FROM (SELECT id, sort_key FROM matched ORDER BY sort_key, id OFFSET ${bind((query.page - 1) * query.limit)} LIMIT ${bind(query.limit)}) page
      JOIN ${EVENTS} e ON e.id = page.id ORDER BY page.sort_key, page.id) p ON true`;
  return { text, parameters };
}
