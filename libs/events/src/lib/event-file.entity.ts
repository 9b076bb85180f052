import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { COMMUNITY_SCHEMA } from '@acme/community-schema';

/** One stored rendition; `key` is the storage key, the URL is derived from it when presented. */
export interface StoredImage {
  key: string;
  width: number;
  height: number;
  size: number;
  format: string;
}

export interface ImageFileMetadata {
  originalFormat: string;
  originalSize: number;
  exifStripped: boolean;
  processingTime: number;
}

export type EventFileRole = 'cover' | 'gallery';

@Entity({ schema: COMMUNITY_SCHEMA, name: 'event_files' })
export class EventFile {
  @PrimaryGeneratedColumn('uuid') id: string;
  @Column('uuid') projectId: string;
  @Column('uuid') eventId: string;
  @Column('text') role: EventFileRole;
  @Column('integer') position: number;
  @Column('text') originalName: string;
  @Column('jsonb') original: StoredImage;
  @Column('jsonb') variants: Record<string, StoredImage>;
  @Column('jsonb') metadata: ImageFileMetadata;
  @Column('timestamptz', { default: () => 'now()' }) createdAt: Date;
}
