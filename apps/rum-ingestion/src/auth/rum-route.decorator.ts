import { applyDecorators, SetMetadata } from '@nestjs/common';
import { RateLimit } from '@acme/platform-http';
import type { Access } from '@acme/rum';

export type LimitClass = 'create' | 'history';

export interface RumRouteOptions {
  /** Counter name, one per route (`rules/create` and `rules/update` do not share a budget). */
  name: string;
  access: Access;
  limit: LimitClass;
}

export const RUM_ROUTE = 'rum:route';

/** What a public rules route needs: the access it takes on the application, and its limit (AccountRateLimitPolicy). */
export const RumRoute = (options: RumRouteOptions) =>
  applyDecorators(SetMetadata(RUM_ROUTE, options), RateLimit(`${options.limit}/${options.name}`));
