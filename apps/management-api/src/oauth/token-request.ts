import type { IncomingHttpHeaders } from 'node:http';
import { CLIENT_ASSERTION_TYPE, ClientAssertion, ClientAuthentication, OAuthErrors, TokenRequest } from '@acme/oauth';
import { isPlainObject } from '@acme/platform-errors';

export interface ParsedTokenRequest extends TokenRequest {
  credentials: ClientAuthentication;
}

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  // RFC 6749 §3.2: parameters MUST NOT be included more than once (a form reads a repeated one as an array).
  if (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    throw OAuthErrors.rfc6749('invalid_request', `Invalid parameter: ${name} must be sent once, as a single string`);
  if (typeof value !== 'string')
    throw OAuthErrors.rfc6749('invalid_request', `Invalid parameter: ${name} must be a string`);
  return value;
}

/** RFC 6749 §2.3.1: `Basic base64(urlencode(id):urlencode(secret))`. */
function basicCredentials(header: string | undefined): ClientAuthentication | undefined {
  if (header === undefined) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw OAuthErrors.rfc6749('invalid_client', 'Malformed HTTP Basic client credentials');
  try {
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon)),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    throw OAuthErrors.rfc6749('invalid_client', 'Malformed HTTP Basic client credentials');
  }
}

/**
 * Reads a client-credentials request (JSON or form) and its client authentication (body or Basic). A protocol
 * parser, not a DTO (docs/decisions.md#one-validation-path): unknown parameters are ignored, errors are
 * RFC 6749 codes chosen by meaning, and the Authorization header takes part.
 */
export function parseTokenRequest(request: { body?: unknown; headers: IncomingHttpHeaders }): ParsedTokenRequest {
  const raw: unknown = request.body;
  const body = isPlainObject(raw) ? raw : {};
  const grantType = stringField(body, 'grant_type');
  if (!grantType) throw OAuthErrors.rfc6749('invalid_request', 'Missing required parameter: grant_type');
  if (grantType !== 'client_credentials')
    throw OAuthErrors.rfc6749('unsupported_grant_type', `Unsupported grant type: ${grantType}`);
  // RFC 6749 §3.2: parameters the endpoint does not know are ignored (libraries send vendor ones, e.g.
  // `organization`); a repeated known one reaches stringField as an array and is refused there.
  const assertion = assertionOf(body, request.headers.authorization);
  if (assertion)
    return { credentials: assertion, audience: stringField(body, 'audience'), scope: stringField(body, 'scope') };
  const bodyId = stringField(body, 'client_id');
  const bodySecret = stringField(body, 'client_secret');
  const basic = basicCredentials(request.headers.authorization);
  if (basic && (bodyId !== undefined || bodySecret !== undefined)) {
    throw OAuthErrors.rfc6749('invalid_request', 'Use only one client authentication method');
  }
  const credentials = basic ?? (bodyId && bodySecret ? { clientId: bodyId, clientSecret: bodySecret } : undefined);
  if (!credentials)
    throw OAuthErrors.rfc6749('invalid_request', 'Missing required parameter: client_id and client_secret');
  return { credentials, audience: stringField(body, 'audience'), scope: stringField(body, 'scope') };
}

/** RFC 7523 §2.2 client authentication, alone: with a secret or HTTP Basic as well it is refused. */
function assertionOf(body: Record<string, unknown>, authorization: string | undefined): ClientAssertion | undefined {
  const type = stringField(body, 'client_assertion_type');
  const assertion = stringField(body, 'client_assertion');
  if (type === undefined && assertion === undefined) return undefined;
  if (type !== CLIENT_ASSERTION_TYPE)
    throw OAuthErrors.rfc6749('invalid_request', `client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`);
  if (!assertion) throw OAuthErrors.rfc6749('invalid_request', 'Missing required parameter: client_assertion');
  if (body['client_secret'] !== undefined || authorization !== undefined)
    throw OAuthErrors.rfc6749('invalid_request', 'Use only one client authentication method');
  return { assertion, clientId: stringField(body, 'client_id') };
}
