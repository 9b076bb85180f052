import { Column, Entity, PrimaryColumn } from 'typeorm';
import { COMMUNITY_SCHEMA } from '@acme/community-schema';

export const RSVP_STATUSES = ['going', 'maybe', 'not_going'] as const;
export type RsvpStatus = (typeof RSVP_STATUSES)[number];

@Entity({ schema: COMMUNITY_SCHEMA, name: 'event_rsvps' })
export class EventRsvp {
  @PrimaryColumn('uuid') eventId: string;
  @PrimaryColumn('uuid') userId: string;
  @Column('uuid') projectId: string;
  @Column('text') status: RsvpStatus;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
