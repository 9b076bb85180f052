import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { managementTable } from '@acme/management-schema';
import {
  isoFromUtcTimestamp,
  isUniqueViolation,
  queryRows,
  ReadReplicas,
  returnedRows,
  TIMESTAMP_AS_TEXT,
} from '@acme/platform-persistence';
import { PolicyCursor } from '../policy-cursor';
import { PolicyConfiguration, PolicyConsumer, PolicyResource } from '../policy-rules';
import { RateLimitPolicy } from '../rate-limit-policy.entity';

export interface PolicyFilter {
  resource?: PolicyResource;
  consumer?: PolicyConsumer;
  consumerSelector?: string;
}

/** A policy as the list shows it: timestamps already in ISO 8601 (UTC, milliseconds). */
export interface PolicyListItem {
  id: string;
  resource: PolicyResource;
  consumer: PolicyConsumer;
  consumerSelector: string;
  configuration: PolicyConfiguration;
  createdAt: string;
  updatedAt: string;
}

export interface NewPolicy {
  id: string;
  resource: PolicyResource;
  consumer: PolicyConsumer;
  consumerSelector: string;
  configuration: PolicyConfiguration;
}

interface PolicyRow {
  id: string;
  resource: PolicyResource;
  consumer: PolicyConsumer;
  consumer_selector: string;
  configuration: PolicyConfiguration;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `"id", "resource", "consumer", "consumer_selector", "configuration", "created_at", "updated_at"`;
/**
 * The list's columns in the list item's shape; the timestamps as UTC `timestamp` text (`YYYY-MM-DD HH:MM:SS.fff`,
 * whatever the session's time zone), turned into ISO 8601 by string surgery rather than parsed into a Date and
 * formatted back: that round trip was ≈ 20% of the list route's CPU. The aliases differ from the column names
 * on purpose: `ORDER BY "created_at"` must name the column (index order), not the converted output.
 */
const LIST_COLUMNS = `"id", "resource", "consumer", "consumer_selector" AS "consumerSelector", "configuration",
  "created_at" AT TIME ZONE 'UTC' AS "createdAt", "updated_at" AT TIME ZONE 'UTC' AS "updatedAt"`;
const TABLE = managementTable('rate_limit_policies');
const TARGET_CONSTRAINT = 'uq_rate_limit_policies_target';

function toEntity(row: PolicyRow): RateLimitPolicy {
  return Object.assign(new RateLimitPolicy(), {
    id: row.id,
    resource: row.resource,
    consumer: row.consumer,
    consumerSelector: row.consumer_selector,
    configuration: row.configuration,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
}

/** Persistence of policies; the list is a keyset scan over `(created_at, id)`. */
@Injectable()
export class RateLimitPolicyRepository {
  constructor(
    @InjectRepository(RateLimitPolicy) private readonly policies: Repository<RateLimitPolicy>,
    private readonly replicas: ReadReplicas,
  ) {}

  /** The created policy; undefined when one already exists for its resource, consumer and selector. */
  async insert(policy: NewPolicy): Promise<RateLimitPolicy | undefined> {
    try {
      const rows: PolicyRow[] = await this.policies.query(
        `INSERT INTO ${TABLE} ("id", "resource", "consumer", "consumer_selector", "configuration")
         VALUES ($1, $2, $3, $4, $5::jsonb) RETURNING ${COLUMNS}`,
        [policy.id, policy.resource, policy.consumer, policy.consumerSelector, JSON.stringify(policy.configuration)],
      );
      return toEntity(rows[0]);
    } catch (error) {
      if (isUniqueViolation(error, TARGET_CONSTRAINT)) return undefined;
      throw error;
    }
  }

  async findById(id: string): Promise<RateLimitPolicy | undefined> {
    const rows: PolicyRow[] = await this.policies.query(`SELECT ${COLUMNS} FROM ${TABLE} WHERE "id" = $1`, [id]);
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  /** Every policy of one protected API (what enforcement loads and caches). */
  async findAllByResource(resource: PolicyResource): Promise<RateLimitPolicy[]> {
    const rows: PolicyRow[] = await this.policies.query(
      `SELECT ${COLUMNS} FROM ${TABLE} WHERE "resource" = $1 ORDER BY "created_at", "id"`,
      [resource],
    );
    return rows.map(toEntity);
  }

  /**
   * Changes on any insert, delete or update of the resource's policies: count plus a sum of row hashes,
   * computed in Postgres so no row crosses the wire. The hash covers the configuration itself, not only
   * `updated_at`: that column keeps milliseconds, so a patch in the millisecond of the insert left it as it was.
   */
  async fingerprintByResource(resource: PolicyResource): Promise<string> {
    const rows = await queryRows<{ fingerprint: string }>(
      this.policies.manager.connection,
      `SELECT count(*)::text || ':' || coalesce(sum(hashtext("id" || '|' || "updated_at"::text || '|' || "configuration"::text)), 0)::text AS "fingerprint"
       FROM ${TABLE} WHERE "resource" = $1`,
      [resource],
    );
    return rows[0].fingerprint;
  }

  /** Up to `limit` policies after `after`, in creation order; from a read replica when there is one. */
  async listPage(filter: PolicyFilter, limit: number, after?: PolicyCursor): Promise<PolicyListItem[]> {
    const conditions: string[] = [];
    const params: unknown[] = [];
    const shape: string[] = [];
    const add = (label: string, sql: (n: number) => string, ...values: unknown[]) => {
      shape.push(label);
      conditions.push(sql(params.length + 1));
      params.push(...values);
    };
    if (filter.resource !== undefined) add('resource', (n) => `"resource" = $${n}`, filter.resource);
    if (filter.consumer !== undefined) add('consumer', (n) => `"consumer" = $${n}`, filter.consumer);
    if (filter.consumerSelector !== undefined)
      add('selector', (n) => `"consumer_selector" = $${n}`, filter.consumerSelector);
    if (after) add('after', (n) => `("created_at", "id") > ($${n}, $${n + 1})`, after.createdAt, after.id);
    params.push(limit);
    const where = conditions.length > 0 ? `WHERE ${conditions.join(' AND ')}` : '';
    const text = `SELECT ${LIST_COLUMNS} FROM ${TABLE} ${where} ORDER BY "created_at", "id" LIMIT $${params.length}`;
    // A named (prepared) statement: each pooled connection parses and plans it once, not on every page,
    // which saves PostgreSQL's CPU on the hottest read. One name per shape of the WHERE clause.
    const name = `rate_limit_policies_list_${shape.join('_') || 'all'}`;
    const rows = await this.replicas.read((db) =>
      queryRows<PolicyListItem>(db, { name, text, types: TIMESTAMP_AS_TEXT }, params),
    );
    // The row objects are the items (one object per row, not row + entity).
    for (const row of rows) {
      row.createdAt = isoFromUtcTimestamp(row.createdAt);
      row.updatedAt = isoFromUtcTimestamp(row.updatedAt);
    }
    return rows;
  }

  async updateConfiguration(id: string, configuration: PolicyConfiguration): Promise<RateLimitPolicy | undefined> {
    const rows = returnedRows<PolicyRow>(
      await this.policies.query(
        `UPDATE ${TABLE} SET "configuration" = $2::jsonb, "updated_at" = clock_timestamp() WHERE "id" = $1 RETURNING ${COLUMNS}`,
        [id, JSON.stringify(configuration)],
      ),
    );
    return rows[0] ? toEntity(rows[0]) : undefined;
  }

  async deleteById(id: string): Promise<boolean> {
    const rows = returnedRows(await this.policies.query(`DELETE FROM ${TABLE} WHERE "id" = $1 RETURNING "id"`, [id]));
    return rows.length > 0;
  }
}
