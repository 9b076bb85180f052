/** Push configuration from the app (libs never read env). */
export abstract class PushSettings {
  /** Both set: use this VAPID pair; otherwise one is generated once and kept in Postgres. */
  abstract readonly vapidPublicKey?: string;
  abstract readonly vapidPrivateKey?: string;
  /** `mailto:` or `https:` contact sent to push services. */
  abstract readonly vapidSubject: string;
  abstract readonly allowInsecureEndpoints: boolean;
  /** Loopback, private and link-local push endpoints (refused by default: SSRF). */
  abstract readonly allowPrivateEndpoints?: boolean;
  abstract readonly timeoutMs: number;
}
