import { COMMUNITY_MIGRATIONS } from '@acme/community';
import { PUSH_MIGRATIONS } from '@acme/community-push';
import { VERIFICATION_MIGRATIONS } from '@acme/community-verification';
import { MIGRATION_SCHEMA_MIGRATIONS } from '@acme/document-migration';
import { EVENTS_MIGRATIONS } from '@acme/events';
import { OAUTH_MIGRATIONS } from '@acme/oauth';
import { POLICIES_MIGRATIONS } from '@acme/policies';
import { RUM_MIGRATIONS } from '@acme/rum';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

// Schema migrations: one folder per lib (libs/<lib>/src/migrations/), one list per lib (its index.ts),
// one registration per app (app.module.ts). TypeORM orders and identifies a migration by the 13-digit
// timestamp ending its class name, so a collision within one service makes the run order ambiguous.

type Migration = { name: string };

const root = join(__dirname, '../../..');

/** The lib lists each app registers, in the order its app.module spreads them. */
const services: Record<string, Record<string, readonly Migration[]>> = {
  'community-api': { COMMUNITY_MIGRATIONS, VERIFICATION_MIGRATIONS, PUSH_MIGRATIONS, EVENTS_MIGRATIONS },
  'management-api': { POLICIES_MIGRATIONS, OAUTH_MIGRATIONS },
  'migration-worker': { MIGRATION_SCHEMA_MIGRATIONS },
  'rum-ingestion': { RUM_MIGRATIONS },
};

const timestampOf = (migration: Migration): string => /(\d{13})$/.exec(migration.name)?.[1] ?? '';
const listOf = (service: string): Migration[] => Object.values(services[service]).flat();

/** Every `libs/<lib>/src/migrations/<file>.ts` holding migrations (not the list, not tests). */
function migrationFiles(): string[] {
  const libsDir = join(root, 'libs');
  return readdirSync(libsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((lib) => {
      const dir = join(libsDir, lib.name, 'src/migrations');
      try {
        return readdirSync(dir).map((file) => join(dir, file));
      } catch {
        return [];
      }
    })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('spec.ts') && basename(file) !== 'index.ts');
}

describe('schema migrations', () => {
  it.each(Object.keys(services))('%s: every migration class name ends with a 13-digit timestamp', (service) => {
    expect(
      listOf(service)
        .filter((migration) => !timestampOf(migration))
        .map((migration) => migration.name),
    ).toEqual([]);
  });

  it.each(Object.keys(services))('%s: timestamps are unique within the service', (service) => {
    const stamps = listOf(service).map(timestampOf);
    expect(stamps.filter((stamp, index) => stamps.indexOf(stamp) !== index)).toEqual([]);
  });

  it.each(Object.keys(services))('%s: each lib list is in ascending timestamp order', (service) => {
    for (const [name, list] of Object.entries(services[service])) {
      const stamps = list.map(timestampOf);
      expect({ name, stamps }).toEqual({ name, stamps: [...stamps].sort() });
    }
  });

  it.each(Object.keys(services))('%s: app.module registers exactly these lib lists, in this order', (service) => {
    const source = readFileSync(join(root, 'apps', service, 'src/app.module.ts'), 'utf8').replace(/^import .*$/gm, '');
    const known = new Set(Object.values(services).flatMap((lists) => Object.keys(lists)));
    const registered = (source.match(/\b[A-Z][A-Z_]*_MIGRATIONS\b/g) ?? []).filter((name) => known.has(name));
    expect(registered).toEqual(Object.keys(services[service]));
  });

  it('every migration file under libs/*/src/migrations is in exactly one service list, under its file timestamp', () => {
    const files = migrationFiles();
    expect(files.length).toBeGreaterThan(0);
    const problems = files.flatMap((file) => {
      const classes = Object.values(require(file) as Record<string, unknown>).filter(
        (value): value is Migration => typeof value === 'function' && /\d{13}$/.test(value.name),
      );
      if (classes.length === 0) return [`${file}: exports no migration class`];
      return classes.flatMap((migration) => {
        const owners = Object.keys(services).filter((service) =>
          listOf(service).some((listed) => listed === migration),
        );
        const fileStamp = basename(file).slice(0, 13);
        return [
          ...(owners.length === 1 ? [] : [`${migration.name} is in ${owners.length} service lists`]),
          ...(timestampOf(migration) === fileStamp ? [] : [`${migration.name} lives in a file stamped ${fileStamp}`]),
        ];
      });
    });
    expect(problems).toEqual([]);
  });
});
