import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateOAuthTables1763700000100 implements MigrationInterface {
  name = 'CreateOAuthTables1763700000100';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE "management"."clients" (
        "client_id" varchar(245) PRIMARY KEY,
        "name" varchar(255) NOT NULL,
        "secret_digest" varchar(64) NOT NULL,
        "is_first_party" boolean NOT NULL,
        "grant_types" text[] NOT NULL,
        "created_at" timestamptz(3) NOT NULL DEFAULT clock_timestamp()
      )`);
    await runner.query(`
      CREATE TABLE "management"."client_grants" (
        "id" varchar(32) PRIMARY KEY,
        "client_id" varchar(245) NOT NULL REFERENCES "management"."clients" ("client_id") ON DELETE CASCADE,
        "audience" varchar(600) NOT NULL,
        "scope" text[] NOT NULL,
        "created_at" timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        CONSTRAINT "uq_client_grants_client_audience" UNIQUE ("client_id", "audience")
      )`);
    await runner.query(`
      CREATE TABLE "management"."signing_keys" (
        "kid" varchar(64) PRIMARY KEY,
        "slot" varchar(16) NOT NULL UNIQUE,
        "private_key_pem" text NOT NULL,
        "created_at" timestamptz(3) NOT NULL DEFAULT clock_timestamp()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE "management"."signing_keys"`);
    await runner.query(`DROP TABLE "management"."client_grants"`);
    await runner.query(`DROP TABLE "management"."clients"`);
  }
}
