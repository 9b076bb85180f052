import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataSource, MissingDriverError } from 'typeorm';
import { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';
import { ensureBuilt, ROOT } from './support/built-service';

// The bundles take tools/build/typeorm-driver-factory.cjs in place of TypeORM's DriverFactory, which requires every
// driver it knows (docs/benchmarks/start-up.md): start-up then evaluates only the PostgreSQL driver.
const { DriverFactory } = require(join(ROOT, 'tools/build/typeorm-driver-factory.cjs')) as {
  DriverFactory: new () => { create(connection: DataSource): unknown };
};

describe("the bundles' TypeORM driver factory", () => {
  it('builds the PostgreSQL driver, and refuses any other type naming postgres as the one available', () => {
    const postgres = new DataSource({ type: 'postgres', url: 'postgres://postgres@127.0.0.1:5432/postgres' });
    expect(new DriverFactory().create(postgres)).toBeInstanceOf(PostgresDriver);
    const mysql = { options: { type: 'mysql' } } as unknown as DataSource;
    expect(() => new DriverFactory().create(mysql)).toThrow(MissingDriverError);
    expect(() => new DriverFactory().create(mysql)).toThrow(/postgres/);
  });

  it('is what the built bundle holds: no other driver is in it', () => {
    ensureBuilt(['rum-ingestion']);
    const bundle = readFileSync(join(ROOT, 'dist/apps/rum-ingestion/app.js'), 'utf8');
    expect(bundle).toContain('class PostgresDriver');
    for (const other of ['MysqlDriver', 'OracleDriver', 'SqlServerDriver', 'SqliteDriver', 'MongoDriver', 'SapDriver'])
      expect(bundle).not.toContain(`class ${other}`);
  }, 300000);
});
