import { MigrationInterface, QueryRunner } from 'typeorm';

const ISO_MS = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/** Rewrites every rule of a snapshot with `rule` (one element, named r) turned into `shape`, keeping their order. */
const rewrite = (shape: string, stillOld: string) => `
  UPDATE "rum"."rule_set_snapshots" s SET "rules" = (
    SELECT coalesce(jsonb_agg(${shape} ORDER BY e."n"), '[]'::jsonb) FROM jsonb_array_elements(s."rules") WITH ORDINALITY AS e(r, n)
  )
  WHERE jsonb_array_length(s."rules") > 0 AND s."rules"->0 ? '${stillOld}'`;

/**
 * Snapshot rules were stored as the API shows them (snake_case, Unix seconds); from now on they hold the
 * domain's shape (camelCase, ISO timestamps), and the app alone renders the wire shape. Seconds convert
 * without loss; the API keeps showing the same seconds.
 */
export class DomainShapedSnapshots1764200000000 implements MigrationInterface {
  name = 'DomainShapedSnapshots1764200000000';

  async up(runner: QueryRunner): Promise<void> {
    const iso = (field: string) => `to_char(to_timestamp((r->>'${field}')::float8) AT TIME ZONE 'UTC', ${ISO_MS})`;
    await runner.query(
      rewrite(
        `jsonb_build_object('id', r->'rule_id', 'name', r->'rule_name', 'description', r->'description', 'filters', r->'filters', 'status', r->'status',
           'createdAt', ${iso('created_at')}, 'updatedAt', ${iso('updated_at')})`,
        'rule_id',
      ),
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    const seconds = (field: string) => `floor(extract(epoch FROM (r->>'${field}')::timestamptz))::bigint`;
    await runner.query(
      rewrite(
        `jsonb_build_object('rule_id', r->'id', 'rule_name', r->'name', 'description', r->'description', 'filters', r->'filters', 'status', r->'status',
           'created_at', ${seconds('createdAt')}, 'updated_at', ${seconds('updatedAt')})`,
        'id',
      ),
    );
  }
}
