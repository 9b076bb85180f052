import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { COMMUNITY_SCHEMA } from '@acme/community-schema';
import type { EventType, EventVisibility } from './event-input';

export type EventStatus = 'active' | 'cancelled';
export interface GeoJsonPoint {
  type: 'Point';
  coordinates: [number, number];
}

/** One event of a project; `location` is GeoJSON and feeds the indexed `earth_point` column (not mapped). */
@Entity({ schema: COMMUNITY_SCHEMA, name: 'events' })
export class EventRecord {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('uuid') userId: string;
  @Column('varchar', { length: 300 }) title: string;
  @Column('text', { nullable: true }) description: string | null;
  @Column('timestamptz') startTime: Date;
  @Column('timestamptz', { nullable: true }) endTime: Date | null;
  @Column('text', { nullable: true }) timezone: string | null;
  @Column('text') type: EventType;
  @Column('text', { nullable: true }) url: string | null;
  @Column('text', { nullable: true }) venueName: string | null;
  @Column('text', { nullable: true }) address: string | null;
  @Column('jsonb', { nullable: true }) location: GeoJsonPoint | null;
  @Column('uuid', { nullable: true }) spaceId: string | null;
  @Column('text') visibility: EventVisibility;
  @Column('text', { default: 'active' }) status: EventStatus;
  @Column('boolean') allowMaybe: boolean;
  @Column('boolean') guestListVisible: boolean;
  @Column('integer', { nullable: true }) capacity: number | null;
  @Column('text', { array: true }) hostIds: string[];
  @Column('jsonb', { default: {} }) metadata: Record<string, unknown>;
  @Column('integer', { default: 0 }) goingCount: number;
  @Column('integer', { default: 0 }) maybeCount: number;
  @Column('integer', { default: 0 }) notGoingCount: number;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
  @Column('timestamptz', { default: () => 'now()' }) updatedAt: Date;
}
