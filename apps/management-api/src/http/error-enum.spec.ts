import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RFC6749_ERROR_CODES } from '@acme/oauth';
import { PresentableError } from '@acme/platform-errors';
import { ERROR_CODE_BY_KIND, MANAGEMENT_WIRE, presentManagementError } from './error-presenter';

/** Issue 31: the published enums list exactly what the presenter answers, Auth0 bodies and OAuth bodies. */
describe('the published error enums and the presenter', () => {
  const document = JSON.parse(readFileSync(join(__dirname, '../../openapi.json'), 'utf8'));
  const schemas = document.components.schemas;
  const base: PresentableError = { status: 400, code: 'X', kind: 'validation', message: 'm', requestId: 'r' };
  const kinds = Object.keys(ERROR_CODE_BY_KIND) as PresentableError['kind'][];
  const bodyOf = (error: PresentableError) => presentManagementError(error).body as Record<string, unknown>;

  // The OAuth lib names its RFC 6749 error in details.oauthError (libs/oauth oauth.errors.ts).
  const DETAILS = [
    undefined,
    { location: 'query' },
    { location: 'param' },
    ...RFC6749_ERROR_CODES.map((oauthError) => ({ oauthError })),
  ];

  /** Every input the presenter distinguishes: each declared code and each kind, on an API and an OAuth path. */
  function answers(path: string): Record<string, unknown>[] {
    const errors: PresentableError[] = [];
    for (const code of Object.keys(MANAGEMENT_WIRE))
      for (const kind of kinds) for (const details of DETAILS) errors.push({ ...base, code, kind, details, path });
    for (const kind of kinds) errors.push({ ...base, code: 'HTTP_405', kind, path });
    return errors.map(bodyOf);
  }

  it('publishes every Auth0 errorCode the API answers, and no other', () => {
    const sent = new Set(answers('/api/v2/rate-limit-policies').map((body) => body['errorCode'] as string));
    expect([...schemas.ManagementErrorBody.properties.errorCode.enum].sort()).toEqual([...sent].sort());
  });

  it('publishes every OAuth error the token endpoint answers, and no other', () => {
    const oauth = answers('/oauth/token').filter((body) => 'error_description' in body);
    const sent = new Set(oauth.map((body) => body['error'] as string));
    expect([...schemas.OAuthErrorBody.properties.error.enum].sort()).toEqual([...sent].sort());
  });
});
