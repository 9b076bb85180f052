import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { COMMUNITY_SCHEMA } from '@acme/community-schema';

/** A mail "sent" to a project's outbox when no SMTP transport is configured (local runs, tests). */
@Entity({ schema: COMMUNITY_SCHEMA, name: 'outbox_messages' })
export class OutboxMessage {
  /** Identity column: orders messages sent within the same millisecond. */
  @PrimaryGeneratedColumn('increment', { type: 'bigint' })
  id: string;

  @Column('uuid')
  projectId: string;

  @Column('text')
  to: string;

  @Column('text')
  subject: string;

  @Column('text')
  text: string;

  @Column('text')
  html: string;

  @Column('timestamptz')
  sentAt: Date;
}
