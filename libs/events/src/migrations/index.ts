import { EventsSpacesRsvps1800000000000 } from './1800000000000-events-spaces-rsvps';

/** In order; the community app appends these after its own (lower-timestamped) migrations. */
export const EVENTS_MIGRATIONS = [EventsSpacesRsvps1800000000000];
