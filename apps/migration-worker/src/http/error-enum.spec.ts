import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HTTP_STATUS, STATUS_BY_KIND, WIRE_BY_CODE } from './error-presenter';

/** Issue 31: the published enum lists exactly what the API answers (docs/migration-worker.md#errors). */
describe('the published error-status enum and the presenter', () => {
  const document = JSON.parse(readFileSync(join(__dirname, '../../openapi.json'), 'utf8'));
  const published: string[] = document.components.schemas.ErrorDetail.properties.status.enum;
  const sent = new Set([...Object.values(WIRE_BY_CODE).map((wire) => wire.status), ...Object.values(STATUS_BY_KIND)]);

  it('lists every status a declared code or a kind can answer, and no other', () => {
    expect([...published].sort()).toEqual([...sent].sort());
    expect(Object.keys(HTTP_STATUS).sort()).toEqual([...sent].sort());
  });

  it('sends UNAVAILABLE (503) and never PERMISSION_DENIED', () => {
    expect(published).toContain('UNAVAILABLE');
    expect(HTTP_STATUS.UNAVAILABLE).toBe(503);
    expect(published).not.toContain('PERMISSION_DENIED');
  });
});
