import { PoliciesErrors } from './policies.errors';

/** Position after which the next page starts: the last row's `(created_at, id)`. */
export interface PolicyCursor {
  createdAt: Date;
  id: string;
}

const ID = /^[A-Za-z0-9_-]{1,26}$/;

/** Opaque to clients: base64url of a small JSON tuple, versioned so the format can change. */
export function encodeCursor(cursor: PolicyCursor): string {
  return Buffer.from(JSON.stringify([1, cursor.createdAt.getTime(), cursor.id])).toString('base64url');
}

export function decodeCursor(text: string): PolicyCursor {
  if (!/^[A-Za-z0-9_-]+$/.test(text) || text.length > 1000) throw PoliciesErrors.invalidCursor();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw PoliciesErrors.invalidCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== 1) throw PoliciesErrors.invalidCursor();
  const [, millis, id] = parsed as [number, unknown, unknown];
  if (typeof millis !== 'number' || !Number.isSafeInteger(millis) || millis < 0 || millis > 8.64e15)
    throw PoliciesErrors.invalidCursor();
  if (typeof id !== 'string' || !ID.test(id)) throw PoliciesErrors.invalidCursor();
  return { createdAt: new Date(millis), id };
}
