/** Failures the management app raises itself: its gate and guards. */
export enum ManagementErrorCode {
  InvalidToken = 'INVALID_TOKEN',
  InvalidSignature = 'INVALID_SIGNATURE',
  ClientNotGlobal = 'CLIENT_NOT_GLOBAL',
  InsufficientScope = 'INSUFFICIENT_SCOPE',
  TooManyRequests = 'TOO_MANY_REQUESTS',
}
