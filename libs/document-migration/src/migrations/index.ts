import { MigrationSchema1763760000000 } from './1763760000000-migration-schema';
import { MigrationCancelledBy1764000000000 } from './1764000000000-migration-cancelled-by';

export { MigrationSchema1763760000000, MigrationCancelledBy1764000000000 };

/** Every schema migration of the `migration` schema, in order; the app hands them to ServiceCoreModule. */
export const MIGRATION_SCHEMA_MIGRATIONS = [MigrationSchema1763760000000, MigrationCancelledBy1764000000000];
