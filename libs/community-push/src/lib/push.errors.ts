import { AppError } from '@acme/platform-errors';

/** Internal codes of push devices; the app maps them to the spec's wire codes. */
export const PushErrorCode = {
  PUSH_DEVICE_UNAUTHORIZED: 'PUSH_DEVICE_UNAUTHORIZED',
  PUSH_DEVICE_INVALID_BODY: 'PUSH_DEVICE_INVALID_BODY',
  PUSH_BUNDLE_REQUIRED: 'PUSH_BUNDLE_REQUIRED',
  PUSH_DEVICE_NOT_FOUND: 'PUSH_DEVICE_NOT_FOUND',
} as const;
export type PushErrorCode = (typeof PushErrorCode)[keyof typeof PushErrorCode];

export const PushErrors = {
  unauthorized: () =>
    new AppError(PushErrorCode.PUSH_DEVICE_UNAUTHORIZED, 'unauthorized', 'A valid end-user access token is required to register a push device.'),
  invalidBody: (message: string, field?: string) =>
    new AppError(PushErrorCode.PUSH_DEVICE_INVALID_BODY, 'validation', message, field ? { details: { field } } : {}),
  bundleRequired: () => new AppError(PushErrorCode.PUSH_BUNDLE_REQUIRED, 'forbidden', 'The push bundle is not enabled for this project.'),
  deviceNotFound: () => new AppError(PushErrorCode.PUSH_DEVICE_NOT_FOUND, 'not_found', 'Push device not found.'),
};
