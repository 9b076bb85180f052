import type { EventFile, EventFileRole, ImageFileMetadata, StoredImage } from './event-file.entity';
import type { EventRecord, EventStatus, GeoJsonPoint } from './event.entity';

export interface ImageView {
  url: string;
  width: number;
  height: number;
  size: number;
  format: string;
}

export interface EventFileView {
  id: string;
  role: EventFileRole;
  position: number;
  originalName: string;
  original: ImageView;
  variants: Record<string, ImageView>;
  metadata: ImageFileMetadata;
  createdAt: string;
}

/** The Event of docs/community-api.md#events. */
export interface EventView {
  id: string;
  projectId: string;
  userId: string;
  title: string;
  description: string | null;
  startTime: string;
  endTime: string | null;
  timezone: string | null;
  type: string;
  url: string | null;
  venueName: string | null;
  address: string | null;
  location: GeoJsonPoint | null;
  spaceId: string | null;
  visibility: string;
  status: EventStatus;
  allowMaybe: boolean;
  guestListVisible: boolean;
  capacity: number | null;
  hostIds: string[];
  metadata: Record<string, unknown>;
  rsvpCounts: { going: number; maybe: number; not_going: number };
  files?: EventFileView[];
  createdAt: string;
  updatedAt: string;
}

const iso = (date: Date | null) => (date ? new Date(date).toISOString() : null);

function imageView(image: StoredImage, urlFor: (key: string) => string): ImageView {
  return { url: urlFor(image.key), width: image.width, height: image.height, size: image.size, format: image.format };
}

export function toFileView(file: EventFile, urlFor: (key: string) => string): EventFileView {
  return {
    id: file.id,
    role: file.role,
    position: file.position,
    originalName: file.originalName,
    original: imageView(file.original, urlFor),
    variants: Object.fromEntries(
      Object.entries(file.variants).map(([name, image]) => [name, imageView(image, urlFor)]),
    ),
    metadata: file.metadata,
    createdAt: new Date(file.createdAt).toISOString(),
  };
}

/** `files` is present only when the event has images, as the spec's "when images were uploaded" says. */
export function toEventView(event: EventRecord, files: EventFile[], urlFor: (key: string) => string): EventView {
  const ordered = [...files].sort((a, b) =>
    a.role === b.role ? a.position - b.position : a.role === 'cover' ? -1 : 1,
  );
  return {
    id: event.id,
    projectId: event.projectId,
    userId: event.userId,
    title: event.title,
    description: event.description,
    startTime: iso(event.startTime) as string,
    endTime: iso(event.endTime),
    timezone: event.timezone,
    type: event.type,
    url: event.url,
    venueName: event.venueName,
    address: event.address,
    location: event.location,
    spaceId: event.spaceId,
    visibility: event.visibility,
    status: event.status,
    allowMaybe: event.allowMaybe,
    guestListVisible: event.guestListVisible,
    capacity: event.capacity,
    hostIds: event.hostIds,
    metadata: event.metadata,
    rsvpCounts: { going: event.goingCount, maybe: event.maybeCount, not_going: event.notGoingCount },
    ...(ordered.length > 0 ? { files: ordered.map((file) => toFileView(file, urlFor)) } : {}),
    createdAt: iso(event.createdAt) as string,
    updatedAt: iso(event.updatedAt) as string,
  };
}
