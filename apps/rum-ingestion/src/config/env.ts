import { BaseEnv, EnvInt } from '@acme/platform-config';

/** The only place this app reads process.env (see `loadEnvSource`). Limits are per account, per route. */
export class RumEnv extends BaseEnv {
  override PORT = 3003;

  /** rules/create, and each other write route (update, delete, enable, disable) on its own counter. */
  @EnvInt({ min: 1 })
  RUM_CREATE_LIMIT_PER_SECOND = 20;

  @EnvInt({ min: 1 })
  RUM_CREATE_LIMIT_PER_MINUTE = 300;

  /** rules/history/list, and each other read route (info, list) on its own counter. */
  @EnvInt({ min: 1 })
  RUM_HISTORY_LIMIT_PER_SECOND = 50;

  @EnvInt({ min: 1 })
  RUM_HISTORY_LIMIT_PER_MINUTE = 1000;
}

export const loadEnvSource = (): Record<string, string | undefined> => process.env;
