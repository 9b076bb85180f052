import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PresentableError } from '@acme/platform-errors';
import { COMMUNITY_WIRE_CODES, HTTP_STATUS_WIRE_CODES } from './community-wire-codes';
import { presentCommunityError } from './error-presenter';
import { ROUTE_INPUT_CODES } from './route-body-codes';

/** Issue 31: the published enum of `code` lists exactly what the presenter answers. */
describe('the published error-code enum and the presenter', () => {
  const document = JSON.parse(readFileSync(join(__dirname, '../../openapi.json'), 'utf8'));
  const published: string[] = document.components.schemas.CommunityErrorBody.properties.code.enum;
  const base: PresentableError = { status: 400, code: 'X', kind: 'validation', message: 'm', requestId: 'r' };
  const codeOf = (error: PresentableError) => (presentCommunityError(error).body as { code: string }).code;

  it('lists every code a table, a kind or a route can answer, and no other', () => {
    const answered = new Set<string>();
    for (const code of Object.keys(COMMUNITY_WIRE_CODES)) answered.add(codeOf({ ...base, code }));
    for (const kind of Object.keys(HTTP_STATUS_WIRE_CODES) as PresentableError['kind'][])
      answered.add(codeOf({ ...base, code: 'HTTP_405', kind }));
    answered.add(codeOf({ ...base, code: 'SOMETHING_UNDECLARED' }));
    const paths = ['events', 'events/e/rsvp', 'events/e/rsvps', 'push-notifications/devices'].map(
      (tail) => `/api/v6/p/api/v7/${tail}`,
    );
    for (const route of ROUTE_INPUT_CODES) {
      const path = paths.find((candidate) => route.path.test(candidate));
      const details = { location: route.location, dto: 'D' };
      answered.add(codeOf({ ...base, code: 'VALIDATION_FAILED', method: route.methods[0], path, details }));
    }
    expect([...published].sort()).toEqual([...answered].sort());
  });

  it('answers the route-level codes through the table', () => {
    const malformed = { ...base, code: 'MALFORMED_BODY' };
    expect(codeOf({ ...malformed, method: 'POST', path: '/api/v6/p/api/v7/events' })).toBe('event/invalid-body');
    expect(codeOf({ ...malformed, method: 'DELETE', path: '/api/v6/p/api/v7/push-notifications/devices' })).toBe(
      'push-device/invalid-body',
    );
    expect(codeOf({ ...malformed, method: 'GET', path: '/api/v6/p/api/v7/events' })).toBe('request/invalid-json');
    const rsvp = { ...base, code: 'VALIDATION_FAILED', method: 'POST', path: '/api/v6/p/api/v7/events/a/rsvp' };
    expect(codeOf({ ...rsvp, details: { location: 'body' } })).toBe('event/invalid-body');
    expect(codeOf({ ...rsvp, details: { location: 'param' } })).toBe('request/invalid-body');
    expect(codeOf({ ...rsvp, details: { location: 'query' } })).toBe('request/invalid-body');
    const list = { ...base, code: 'VALIDATION_FAILED', method: 'GET', details: { location: 'query', dto: 'D' } };
    expect(codeOf({ ...list, path: '/api/v6/p/api/v7/events' })).toBe('event/invalid-query');
    expect(codeOf({ ...list, path: '/api/v6/p/api/v7/events/e/rsvps' })).toBe('event/invalid-query');
    expect(codeOf({ ...list, path: '/api/v6/p/api/v7/events/e' })).toBe('request/invalid-body');
    // The platform's text rule runs before the query DTO and keeps the app-wide code.
    expect(codeOf({ ...list, details: { location: 'query' }, path: '/api/v6/p/api/v7/events' })).toBe(
      'request/invalid-body',
    );
    expect(codeOf({ ...list, details: { location: 'body' }, path: '/api/v6/p/api/v7/events' })).toBe(
      'request/invalid-body',
    );
    expect(codeOf({ ...malformed, status: 413, method: 'POST', path: '/api/v6/p/api/v7/events' })).not.toBe(
      'event/invalid-body',
    );
  });
});
