import type { IncomingHttpHeaders } from 'node:http';
import { ClientCredentials, oauthError, TokenRequest } from '@acme/oauth';

export interface ParsedTokenRequest extends TokenRequest {
  credentials: ClientCredentials;
}

const KNOWN = new Set(['grant_type', 'client_id', 'client_secret', 'audience', 'scope']);

function stringField(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw oauthError('invalid_request', `Invalid parameter: ${name} must be a string`);
  return value;
}

/** RFC 6749 §2.3.1: `Basic base64(urlencode(id):urlencode(secret))`. */
function basicCredentials(header: string | undefined): ClientCredentials | undefined {
  if (header === undefined) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw oauthError('invalid_client', 'Malformed HTTP Basic client credentials');
  try {
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), clientSecret: decodeURIComponent(decoded.slice(colon + 1)) };
  } catch {
    throw oauthError('invalid_client', 'Malformed HTTP Basic client credentials');
  }
}

/** Reads a client-credentials request (JSON or form) and its client authentication (body or Basic). */
export function parseTokenRequest(request: { body?: unknown; headers: IncomingHttpHeaders }): ParsedTokenRequest {
  const raw: unknown = request.body;
  const body = (typeof raw === 'object' && raw !== null && !Array.isArray(raw) ? raw : {}) as Record<string, unknown>;
  const grantType = stringField(body, 'grant_type');
  if (!grantType) throw oauthError('invalid_request', 'Missing required parameter: grant_type');
  if (grantType !== 'client_credentials') throw oauthError('unsupported_grant_type', `Unsupported grant type: ${grantType}`);
  for (const name of Object.keys(body)) {
    if (!KNOWN.has(name)) throw oauthError('invalid_request', `Unknown parameter: ${name}`);
  }
  const bodyId = stringField(body, 'client_id');
  const bodySecret = stringField(body, 'client_secret');
  const basic = basicCredentials(request.headers.authorization);
  if (basic && (bodyId !== undefined || bodySecret !== undefined)) {
    throw oauthError('invalid_request', 'Use only one client authentication method');
  }
  const credentials = basic ?? (bodyId && bodySecret ? { clientId: bodyId, clientSecret: bodySecret } : undefined);
  if (!credentials) throw oauthError('invalid_request', 'Missing required parameter: client_id and client_secret');
  return { credentials, audience: stringField(body, 'audience'), scope: stringField(body, 'scope') };
}
