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

/** A failure of the events domain; its kind follows from the code. */
export class EventError extends AppError {
  constructor(code: EventErrorCode, message: string, details?: Record<string, unknown>) {
    super(code, KIND[code], message, { details });
    this.name = 'EventError';
  }
}

/** The domain's failures with their texts, worded once. */
export const EventErrors = {
  /** Input the events rules refuse, naming the offending field; where it was sent is the HTTP edge's to say. */
  invalidInput: (message: string, field?: string) =>
    new EventError(EventErrorCode.INVALID_INPUT, message, field === undefined ? undefined : { field }),
  notFound: () => new EventError(EventErrorCode.NOT_FOUND, 'The event does not exist.'),
  notHost: () => new EventError(EventErrorCode.NOT_HOST, 'Only a host can cancel the event.'),
  maybeDisabled: () => new EventError(EventErrorCode.MAYBE_DISABLED, 'This event does not accept maybe.'),
  full: () => new EventError(EventErrorCode.FULL, 'The event is full.'),
  cancelled: () => new EventError(EventErrorCode.CANCELLED, 'The event is cancelled.'),
  rsvpClosed: () => new EventError(EventErrorCode.RSVP_CLOSED, 'RSVPs closed when the event started.'),
  rsvpNotSpaceMember: () =>
    new EventError(EventErrorCode.NOT_SPACE_MEMBER, 'Only active members of the space can RSVP.'),
  creatorNotSpaceMember: () =>
    new EventError(EventErrorCode.NOT_SPACE_MEMBER, 'The creator is not an active member of the space.'),
  guestListHidden: () =>
    new EventError(EventErrorCode.GUEST_LIST_HIDDEN, 'Only hosts can see the guest list of this event.'),
  filesImagesBundleRequired: () =>
    new EventError(EventErrorCode.FILES_IMAGES_BUNDLE_REQUIRED, 'Image upload needs the files-images bundle.'),
  spacesBundleRequired: () => new EventError(EventErrorCode.SPACES_BUNDLE_REQUIRED, 'spaceId needs the spaces bundle.'),
  spaceNotFound: () => new EventError(EventErrorCode.SPACE_NOT_FOUND, 'The space does not exist.'),
  fileNotFound: () => new EventError(EventErrorCode.FILE_NOT_FOUND, 'No such file.'),
  fileTooLarge: (filename: string) =>
    new EventError(EventErrorCode.FILE_TOO_LARGE, `${filename} exceeds the 50 MB limit for one image`, {
      file: filename,
    }),
  invalidImage: (filename: string, reason: string) =>
    new EventError(EventErrorCode.INVALID_IMAGE, `${filename} is not a valid image: ${reason}`, { file: filename }),
};
