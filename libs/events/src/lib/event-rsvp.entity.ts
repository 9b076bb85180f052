import { Column, Entity, PrimaryColumn } from 'typeorm';

export const RSVP_STATUSES = ['going', 'maybe', 'not_going'] as const;
export type RsvpStatus = (typeof RSVP_STATUSES)[number];

@Entity({ schema: 'community', name: 'event_rsvps' })
export class EventRsvp {
  @PrimaryColumn('uuid') eventId: string;
  @PrimaryColumn('uuid') userId: string;
  @Column('uuid') projectId: string;
  @Column('text') status: RsvpStatus;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
