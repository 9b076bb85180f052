import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { COMMUNITY_SCHEMA } from '@acme/community-schema';
import type { PushPlatform } from './device-registration';

/** One physical device of a project: unique by (projectId, deviceKey), the token or the web push endpoint. */
@Entity({ schema: COMMUNITY_SCHEMA, name: 'push_devices' })
export class PushDevice {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid')
  projectId: string;

  @Column('uuid')
  userId: string;

  @Column('text')
  platform: PushPlatform;

  @Column('text')
  deviceKey: string;

  /** Web push subscription keys (null for ios/android). */
  @Column('text', { nullable: true })
  p256dh: string | null;

  @Column('text', { nullable: true })
  auth: string | null;

  @Column('timestamptz')
  lastSeenAt: Date;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
