import { AppError, AppErrorKind } from '@acme/platform-errors';

/** Internal codes of the events domain; the community presenter maps each to its wire code. */
export enum EventErrorCode {
  INVALID_INPUT = 'EVENT_INVALID_INPUT',
  FILES_IMAGES_BUNDLE_REQUIRED = 'EVENT_FILES_IMAGES_BUNDLE_REQUIRED',
  SPACES_BUNDLE_REQUIRED = 'EVENT_SPACES_BUNDLE_REQUIRED',
  SPACE_NOT_FOUND = 'EVENT_SPACE_NOT_FOUND',
  NOT_SPACE_MEMBER = 'EVENT_NOT_SPACE_MEMBER',
  FILE_TOO_LARGE = 'EVENT_FILE_TOO_LARGE',
  INVALID_IMAGE = 'EVENT_INVALID_IMAGE',
  NOT_FOUND = 'EVENT_NOT_FOUND',
  CANCELLED = 'EVENT_CANCELLED',
  RSVP_CLOSED = 'EVENT_RSVP_CLOSED',
  MAYBE_DISABLED = 'EVENT_MAYBE_DISABLED',
  FULL = 'EVENT_FULL',
  NOT_HOST = 'EVENT_NOT_HOST',
  GUEST_LIST_HIDDEN = 'EVENT_GUEST_LIST_HIDDEN',
  FILE_NOT_FOUND = 'EVENT_FILE_NOT_FOUND',
}

const KIND: Readonly<Record<EventErrorCode, AppErrorKind>> = {
  [EventErrorCode.INVALID_INPUT]: 'validation',
  [EventErrorCode.FILES_IMAGES_BUNDLE_REQUIRED]: 'forbidden',
  [EventErrorCode.SPACES_BUNDLE_REQUIRED]: 'forbidden',
  [EventErrorCode.SPACE_NOT_FOUND]: 'not_found',
  [EventErrorCode.NOT_SPACE_MEMBER]: 'forbidden',
  [EventErrorCode.FILE_TOO_LARGE]: 'payload_too_large',
  [EventErrorCode.INVALID_IMAGE]: 'unprocessable',
  [EventErrorCode.NOT_FOUND]: 'not_found',
  [EventErrorCode.CANCELLED]: 'conflict',
  [EventErrorCode.RSVP_CLOSED]: 'conflict',
  [EventErrorCode.MAYBE_DISABLED]: 'conflict',
  [EventErrorCode.FULL]: 'conflict',
  [EventErrorCode.NOT_HOST]: 'forbidden',
  [EventErrorCode.GUEST_LIST_HIDDEN]: 'forbidden',
  [EventErrorCode.FILE_NOT_FOUND]: 'not_found',
};

export class EventError extends AppError {
  constructor(code: EventErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, KIND[code], message, { details });
    this.name = 'EventError';
  }
}

/** Input the events rules refuse, naming the offending field; where it was sent is the HTTP edge's to say. */
export const invalidEventInput = (message: string, field?: string): EventError =>
  new EventError(EventErrorCode.INVALID_INPUT, message, field === undefined ? undefined : { field });
