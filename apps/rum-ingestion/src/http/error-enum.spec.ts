import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RUM_ERRORS, RUM_WIRE, WIRE_BY_KIND } from './error-presenter';

const root = join(__dirname, '../../../..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

/** Issue 31: the published enum lists exactly what the API answers, and every doc gives the same statuses. */
describe('the published error-code enum and the presenter', () => {
  const document = JSON.parse(read('apps/rum-ingestion/openapi.json'));
  const published: string[] = document.components.schemas.RumError.properties.code.enum;
  const wires = [...Object.values(RUM_WIRE), ...Object.values(WIRE_BY_KIND)];
  const statusesOf = (code: string) => [...new Set(wires.filter((w) => w.code === code).map((w) => w.status))].sort();

  it('lists every code a declared error or a kind can answer, and no other', () => {
    const sent = [...new Set(wires.map((wire) => wire.code))].sort();
    expect([...published].sort()).toEqual(sent);
    expect(Object.keys(RUM_ERRORS).sort()).toEqual(sent);
  });

  it('sends InvalidParameter with 400, 404 and 413, and InternalError with 500 and 503', () => {
    expect(statusesOf('InvalidParameter')).toEqual([400, 404, 413]);
    expect(statusesOf('InternalError')).toEqual([500, 503]);
    expect(statusesOf('Unauthorized')).toEqual([401, 403]);
    expect(statusesOf('RequestTooFrequently')).toEqual([429]);
  });

  it.each(['docs/rum-ingestion.md', 'apps/rum-ingestion/README.md'])('%s names those statuses', (path) => {
    const text = read(path).replace(/\s+/g, ' ');
    for (const status of ['413', '404', '503']) expect(text).toContain(status);
    expect(text).toMatch(/InternalError[^.]*503|503[^.]*InternalError/);
    expect(text).toMatch(/InvalidParameter[^.]*413|413[^.]*InvalidParameter/);
  });
});
