import { AppError, AppErrorKind } from '@acme/platform-errors';

/** Internal codes of push devices; the app maps them to the spec's wire codes. */
export enum PushErrorCode {
  PUSH_DEVICE_UNAUTHORIZED = 'PUSH_DEVICE_UNAUTHORIZED',
  PUSH_DEVICE_INVALID_BODY = 'PUSH_DEVICE_INVALID_BODY',
  PUSH_BUNDLE_REQUIRED = 'PUSH_BUNDLE_REQUIRED',
  PUSH_DEVICE_NOT_FOUND = 'PUSH_DEVICE_NOT_FOUND',
}

const KIND: Readonly<Record<PushErrorCode, AppErrorKind>> = {
  [PushErrorCode.PUSH_DEVICE_UNAUTHORIZED]: 'unauthorized',
  [PushErrorCode.PUSH_DEVICE_INVALID_BODY]: 'validation',
  [PushErrorCode.PUSH_BUNDLE_REQUIRED]: 'forbidden',
  [PushErrorCode.PUSH_DEVICE_NOT_FOUND]: 'not_found',
};

/** A failure of push devices; its kind follows from the code. */
export class PushError extends AppError {
  constructor(code: PushErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, KIND[code], message, details ? { details } : {});
    this.name = 'PushError';
  }
}

export const PushErrors = {
  unauthorized: () =>
    new PushError(
      PushErrorCode.PUSH_DEVICE_UNAUTHORIZED,
      'A valid end-user access token is required to register a push device.',
    ),
  invalidBody: (message: string, field?: string) =>
    new PushError(PushErrorCode.PUSH_DEVICE_INVALID_BODY, message, field ? { field } : undefined),
  bundleRequired: () =>
    new PushError(PushErrorCode.PUSH_BUNDLE_REQUIRED, 'The push bundle is not enabled for this project.'),
  deviceNotFound: () => new PushError(PushErrorCode.PUSH_DEVICE_NOT_FOUND, 'Push device not found.'),
};
