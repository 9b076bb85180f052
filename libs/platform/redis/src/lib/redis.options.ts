export interface RedisOptions {
  url: string;
  /** Namespace for every key and channel of this deployment, without the trailing colon. */
  prefix: string;
}

export abstract class RedisSettings implements RedisOptions {
  abstract readonly url: string;
  abstract readonly prefix: string;
}
