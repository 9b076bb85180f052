/** Failures the management app raises itself: its gate and guards. */
export enum ManagementErrorCode {
  INVALID_TOKEN = 'INVALID_TOKEN',
  INVALID_SIGNATURE = 'INVALID_SIGNATURE',
  CLIENT_NOT_GLOBAL = 'CLIENT_NOT_GLOBAL',
  INSUFFICIENT_SCOPE = 'INSUFFICIENT_SCOPE',
  TOO_MANY_REQUESTS = 'TOO_MANY_REQUESTS',
}
