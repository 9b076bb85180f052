/** Tuning of the enforcer, provided by the app from its env. */
export abstract class PolicyEnforcementSettings {
  /** Longest wait for the limiter before the request proceeds unlimited (fail open). */
  abstract readonly limiterTimeoutMs: number;
  /** Backstop reload of the cached policies, in seconds (0 = only on change notifications). */
  abstract readonly reloadIntervalSeconds: number;
}
