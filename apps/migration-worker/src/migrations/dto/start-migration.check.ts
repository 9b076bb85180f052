import { hasExactlyKeys } from '@acme/platform-errors';
import { isText } from '../../http/plain-checks';

/**
 * The start's plain check (AcceptWhen on StartMigrationRequest): 10,000 listed ids through class-transformer
 * and class-validator held the event loop for hundreds of ms. A body of the common valid shape is recognised
 * here in one O(n) pass; any other body goes through the decorators, whose answers (and wording) stay as they
 * were (docs/decisions.md#big-bodies-are-checked-in-chunks).
 */
export const MAX_DOCUMENT_IDS = 10000;

const isId = (value: unknown): value is string => isText(value, 1, 256);

/** 1 to 10,000 distinct ids of 1 to 256 characters. */
function isIdList(value: unknown): boolean {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_DOCUMENT_IDS) return false;
  const seen = new Set<string>();
  for (const id of value) {
    if (!isId(id) || seen.has(id)) return false;
    seen.add(id);
  }
  return true;
}

export function acceptStartBody(body: unknown): boolean {
  if (!hasExactlyKeys(body, ['data'])) return false;
  const data = body['data'];
  const listed = hasExactlyKeys(data, ['organizationId', 'targetOrganizationId', 'documentIds']);
  if (!listed && !hasExactlyKeys(data, ['organizationId', 'targetOrganizationId'])) return false;
  return (
    isId(data['organizationId']) && isId(data['targetOrganizationId']) && (!listed || isIdList(data['documentIds']))
  );
}
