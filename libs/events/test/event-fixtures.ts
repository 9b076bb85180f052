import { randomUUID } from 'node:crypto';

export { type CommunityTestDatabase, startCommunityDatabase } from '@acme/community/testing';

/** A valid event row for `EventRepository.insert` (public, online, starting in a day), with `overrides`. */
export function newEvent(projectId: string, userId: string, overrides: Partial<Record<string, unknown>> = {}) {
  return {
    id: randomUUID(),
    projectId,
    userId,
    title: 'Meetup',
    description: null,
    startTime: new Date(Date.now() + 86_400_000),
    endTime: null,
    timezone: null,
    type: 'online' as const,
    url: 'https://meet.example',
    venueName: null,
    address: null,
    location: null,
    spaceId: null,
    visibility: 'public' as const,
    allowMaybe: true,
    guestListVisible: true,
    capacity: null,
    hostIds: [userId],
    metadata: {},
    ...overrides,
  };
}
