// Bundled in place of typeorm/driver/DriverFactory.js. TypeORM's own factory requires all eighteen drivers and their
// query runners (~1.2 MB of code) for the one the services use (libs/platform/persistence data-source.ts: postgres),
// and a start then evaluates and the code cache carries all of them (docs/benchmarks/start-up.md).
'use strict';
const { PostgresDriver } = require('typeorm/driver/postgres/PostgresDriver');
const { MissingDriverError } = require('typeorm/error/MissingDriverError');

class DriverFactory {
  create(connection) {
    const { type } = connection.options;
    if (type === 'postgres') return new PostgresDriver(connection);
    throw new MissingDriverError(type, ['postgres']);
  }
}
exports.DriverFactory = DriverFactory;
