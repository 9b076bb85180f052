import { privateEndpointReason } from './endpoint-address';
import { PushErrors } from './push.errors';

export const PUSH_PLATFORMS = ['ios', 'android', 'web'] as const;
export type PushPlatform = (typeof PUSH_PLATFORMS)[number];

/** A validated registration body; `deviceKey` identifies the physical device within a project. */
export type DeviceRegistration =
  | { platform: 'ios' | 'android'; deviceKey: string; token: string }
  | { platform: 'web'; deviceKey: string; subscription: { endpoint: string; keys: { p256dh: string; auth: string } } };

export interface RegistrationRules {
  /** `http:` endpoints (local push services); browsers only hand out https endpoints. */
  allowInsecureEndpoints: boolean;
  /** Endpoints on loopback, private or link-local hosts (a push service on the local network); off by default. */
  allowPrivateEndpoints?: boolean;
}

const MAX_TOKEN = 4096;
const MAX_ENDPOINT = 2048;
const MAX_KEY = 256;
const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function onlyKeys(value: Record<string, unknown>, allowed: string[], where: string): void {
  const unknown = Object.keys(value).find((key) => !allowed.includes(key));
  if (unknown !== undefined) throw PushErrors.invalidBody(`Unknown property ${where}${unknown}.`, `${where}${unknown}`);
}

function keyValue(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_KEY || !BASE64URL.test(value)) {
    throw PushErrors.invalidBody(`${field} must be a URL-safe base64 string of at most ${MAX_KEY} characters.`, field);
  }
  return value;
}

function endpointValue(value: unknown, rules: RegistrationRules): string {
  const field = 'subscription.endpoint';
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_ENDPOINT) {
    throw PushErrors.invalidBody(`${field} must be a URL of at most ${MAX_ENDPOINT} characters.`, field);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw PushErrors.invalidBody(`${field} must be an absolute URL.`, field);
  }
  const allowed = rules.allowInsecureEndpoints ? ['https:', 'http:'] : ['https:'];
  if (!allowed.includes(url.protocol) || url.username || url.password)
    throw PushErrors.invalidBody(`${field} must be an https URL.`, field);
  // The server will send requests to this URL: never to itself or its network (docs/security.md, SSRF).
  const privateReason = rules.allowPrivateEndpoints ? undefined : privateEndpointReason(url);
  if (privateReason) throw PushErrors.invalidBody(`${field} ${privateReason}.`, field);
  return value;
}

/**
 * Validates a registration body (docs/community-api.md#push-devices): `platform` one of ios|android|web; `token` for ios/android;
 * `subscription {endpoint, keys: {p256dh, auth}}` for web, the keys also accepted as properties literally
 * named `keys.p256dh` / `keys.auth`. Anything else is 400 `push-device/invalid-body`.
 */
export function parseDeviceRegistration(body: unknown, rules: RegistrationRules): DeviceRegistration {
  if (!isRecord(body)) throw PushErrors.invalidBody('The body must be a JSON object.');
  const platform = body['platform'];
  if (typeof platform !== 'string' || !(PUSH_PLATFORMS as readonly string[]).includes(platform)) {
    throw PushErrors.invalidBody('platform must be one of ios, android, web.', 'platform');
  }
  if (platform === 'ios' || platform === 'android') {
    onlyKeys(body, ['platform', 'token'], '');
    const token = body['token'];
    if (typeof token !== 'string' || token.trim().length === 0 || token.length > MAX_TOKEN) {
      throw PushErrors.invalidBody(
        `token is required for ${platform} (a string of at most ${MAX_TOKEN} characters).`,
        'token',
      );
    }
    return { platform, deviceKey: token, token };
  }
  onlyKeys(body, ['platform', 'subscription'], '');
  const subscription = body['subscription'];
  if (!isRecord(subscription)) throw PushErrors.invalidBody('subscription is required for web.', 'subscription');
  onlyKeys(subscription, ['endpoint', 'keys', 'keys.p256dh', 'keys.auth', 'expirationTime'], 'subscription.');
  const expiration = subscription['expirationTime'];
  if (expiration !== undefined && expiration !== null && typeof expiration !== 'number') {
    throw PushErrors.invalidBody(
      'subscription.expirationTime must be a number or null.',
      'subscription.expirationTime',
    );
  }
  const nested = subscription['keys'];
  if (nested !== undefined && !isRecord(nested))
    throw PushErrors.invalidBody('subscription.keys must be an object.', 'subscription.keys');
  if (nested) onlyKeys(nested, ['p256dh', 'auth'], 'subscription.keys.');
  const endpoint = endpointValue(subscription['endpoint'], rules);
  const p256dh = keyValue(nested?.['p256dh'] ?? subscription['keys.p256dh'], 'subscription.keys.p256dh');
  const auth = keyValue(nested?.['auth'] ?? subscription['keys.auth'], 'subscription.keys.auth');
  return { platform: 'web', deviceKey: endpoint, subscription: { endpoint, keys: { p256dh, auth } } };
}
