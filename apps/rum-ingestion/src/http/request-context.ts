import type { Request } from 'express';
import type { Account, ClientTokenTarget } from '@acme/rum';

/** The request as the RUM guards leave it; `id` is pino-http's request id. */
export type RumRequest = Request & {
  id?: string | number;
  rumAccount?: Account;
  rumIngestTarget?: ClientTokenTarget;
};

export const requestIdOf = (request: RumRequest): string => String(request.id ?? '');

/** The account the app-key guard resolved; a route without that guard asking for it is our bug. */
export function accountOf(request: RumRequest): Account {
  if (!request.rumAccount) throw new Error('route is not guarded by AppKeyGuard');
  return request.rumAccount;
}

export function ingestTargetOf(request: RumRequest): ClientTokenTarget {
  if (!request.rumIngestTarget) throw new Error('route is not guarded by ClientTokenGuard');
  return request.rumIngestTarget;
}
