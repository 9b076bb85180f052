import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Account, ClientTokenTarget } from '@acme/rum';

/** The request as the RUM guards leave it; `id` is the request id the logging middleware set. */
export type RumRequest = {
  id?: string | number;
  method: string;
  /** Path and query string as received. */
  url: string;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  body?: unknown;
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

/** The calling account (AppKeyGuard resolved it from `app_key`). */
export const CallingAccount = createParamDecorator((_data: unknown, context: ExecutionContext): Account =>
  accountOf(context.switchToHttp().getRequest<RumRequest>()),
);

/** The application an ingest client token stands for (ClientTokenGuard resolved it). */
export const IngestTarget = createParamDecorator((_data: unknown, context: ExecutionContext): ClientTokenTarget =>
  ingestTargetOf(context.switchToHttp().getRequest<RumRequest>()),
);
