import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './support/scratch-repo';

const services = JSON.parse(readFileSync(join(ROOT, 'tools/services.json'), 'utf8')) as { name: string }[];

/**
 * The hostile-input walk (libs/platform/testing openapi-walk) runs in each app's e2e suite against its own
 * committed contract, with the credentials only that app's fixtures can mint. This holds every service to it.
 */
describe('hostile-input walk of every OpenAPI contract', () => {
  it.each(services.map((service) => service.name))(
    '%s walks its committed openapi.json and expects no finding',
    (name) => {
      const spec = join(ROOT, 'apps', name, 'test/openapi-walk.e2e-spec.ts');
      expect(existsSync(spec)).toBe(true);
      const source = readFileSync(spec, 'utf8');
      expect(source).toContain("readDereferencedOpenApi(join(__dirname, '../openapi.json'))");
      expect(source).toContain('walkOpenApiWithHostileInput(');
      expect(source).toContain('expect(report.findings).toEqual([])');
      expect(source).toMatch(/expect\(report\.operations\.length\)\.toBe\(/);
      expect(existsSync(join(ROOT, 'apps', name, 'openapi.json'))).toBe(true);
    },
  );
});
