import { BaseEnv } from '@acme/platform-config';

/** The only place this app reads process.env (see `loadEnvSource`). */
export class ManagementEnv extends BaseEnv {
  override PORT = 3001;
}

export const loadEnvSource = (): Record<string, string | undefined> => process.env;
