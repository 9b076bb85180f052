import type { Request } from 'express';
import type { Account, ClientTokenTarget } from '@acme/rules';

/** The request as the RUM guards leave it; `id` is pino-http's request id. */
export type RumRequest = Request & {
  id?: string | number;
  rumAccount?: Account;
  rumIngestTarget?: ClientTokenTarget;
};

export const requestIdOf = (request: RumRequest): string => String(request.id ?? '');
