import { EventsSpacesRsvps1800000000000 } from './1800000000000-events-spaces-rsvps';
import { PendingUploads1800000000001 } from './1800000000001-pending-uploads';

export { EventsSpacesRsvps1800000000000, PendingUploads1800000000001 };

/** In order; the community app appends these after its own (lower-timestamped) migrations. */
export const EVENTS_MIGRATIONS = [EventsSpacesRsvps1800000000000, PendingUploads1800000000001];
