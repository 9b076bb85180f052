export const EVENT_TYPES = ['online', 'physical', 'hybrid'] as const;
export const EVENT_VISIBILITIES = ['public', 'members', 'invite'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export type EventVisibility = (typeof EVENT_VISIBILITIES)[number];

export const METADATA_MAX_BYTES = 1024 * 1024;

export interface GeoPointInput {
  latitude: number;
  longitude: number;
}

/** A create request after the app validated it; JSON and multipart encodings both end here. */
export interface CreateEventInput {
  title: string;
  startTime: Date;
  type: EventType;
  description: string | null;
  endTime: Date | null;
  timezone: string | null;
  url: string | null;
  venueName: string | null;
  address: string | null;
  location: GeoPointInput | null;
  spaceId: string | null;
  visibility: EventVisibility;
  capacity: number | null;
  allowMaybe: boolean;
  guestListVisible: boolean;
  hostIds: string[];
  metadata: Record<string, unknown>;
  userId: string | null;
}
