/** The protected APIs and consumer kinds a policy may name (docs/management-api.md#rate-limit-policies). */
export const POLICY_RESOURCES = ['oauth_authentication_api'] as const;
export type PolicyResource = (typeof POLICY_RESOURCES)[number];

export const POLICY_CONSUMERS = ['client'] as const;
export type PolicyConsumer = (typeof POLICY_CONSUMERS)[number];

export const POLICY_ACTIONS = ['allow', 'block', 'log', 'redirect'] as const;
export type PolicyAction = (typeof POLICY_ACTIONS)[number];

export const MAX_SELECTOR_LENGTH = 255;
export const MAX_POLICY_ID_LENGTH = 26;
export const MAX_LIMIT = 10000;

export type PolicyConfiguration =
  | { action: 'allow' }
  | { action: 'block' | 'log'; limit: number }
  | { action: 'redirect'; limit: number; redirect_uri: string };

export type ConsumerSelector =
  | { kind: 'client_id'; clientId: string }
  | { kind: 'cimd_client'; clientId: string }
  | { kind: 'cimd_clients' }
  | { kind: 'third_party_clients' }
  | { kind: 'default' };

const CLIENT_ID = /^[A-Za-z0-9._~-]+$/;

/** A strict `https://` URI: absolute, with a host, no credentials, no whitespace or control characters. */
export function isStrictHttpsUri(value: unknown): value is string {
  if (typeof value !== 'string' || value.length > 2048 || !value.startsWith('https://')) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\s\u0000-\u001f\u007f]/.test(value)) return false;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && url.hostname.length > 0 && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

/** True when a client id is a URI (a client identified by its metadata document, "CIMD"). */
export const isCimdClientId = (clientId: string): boolean => clientId.startsWith('https://');

/** The five selector forms of part 2; `undefined` when the text is none of them. */
export function parseConsumerSelector(value: unknown): ConsumerSelector | undefined {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_SELECTOR_LENGTH) return undefined;
  if (value === 'default' || value === 'cimd_clients' || value === 'third_party_clients') return { kind: value };
  if (!value.startsWith('client_id:')) return undefined;
  const clientId = value.slice('client_id:'.length);
  if (isCimdClientId(clientId)) return isStrictHttpsUri(clientId) ? { kind: 'cimd_client', clientId } : undefined;
  return CLIENT_ID.test(clientId) ? { kind: 'client_id', clientId } : undefined;
}

const ALLOWED_KEYS: Record<PolicyAction, string[]> = {
  allow: ['action'],
  block: ['action', 'limit'],
  log: ['action', 'limit'],
  redirect: ['action', 'limit', 'redirect_uri'],
};

/** Problems with a configuration (exactly one of the three shapes); empty when it is valid. */
export function configurationProblems(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return ['configuration must be an object'];
  const record = value as Record<string, unknown>;
  const action = record['action'];
  if (typeof action !== 'string' || !(POLICY_ACTIONS as readonly string[]).includes(action)) {
    return [`configuration.action must be one of: ${POLICY_ACTIONS.join(', ')}`];
  }
  const problems: string[] = [];
  const allowed = ALLOWED_KEYS[action as PolicyAction];
  for (const key of Object.keys(record)) {
    if (!allowed.includes(key)) problems.push(`configuration.${key} is not allowed when action is ${action}`);
  }
  if (action !== 'allow') {
    const limit = record['limit'];
    if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 0 || limit > MAX_LIMIT) {
      problems.push(`configuration.limit must be an integer from 0 to ${MAX_LIMIT}`);
    }
  }
  if (action === 'redirect' && !isStrictHttpsUri(record['redirect_uri'])) {
    problems.push('configuration.redirect_uri must be an https:// URI');
  }
  return problems;
}

export function isPolicyConfiguration(value: unknown): value is PolicyConfiguration {
  return configurationProblems(value).length === 0;
}
