import type { EventType, EventVisibility } from './event-input';

export interface NearFilter {
  latitude: number;
  longitude: number;
  /** Metres. */
  radius: number;
}

/** GET .../events after the app validated its query string: paging, a start-time window, filters, a radius. */
export interface ListEventsQuery {
  page: number;
  limit: number;
  from: Date | null;
  to: Date | null;
  type: EventType | null;
  visibility: EventVisibility | null;
  status: 'active' | 'cancelled' | null;
  spaceId: string | null;
  userId: string | null;
  hostId: string | null;
  near: NearFilter | null;
  sortBy: 'startTime' | 'distance';
}

/** The largest radius: half the Earth's circumference. */
export const MAX_RADIUS_METRES = 20_037_509;
