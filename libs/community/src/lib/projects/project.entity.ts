import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { COMMUNITY_SCHEMA } from '@acme/community-schema';
import type { Bundle } from './bundles';

/** A tenant of the community API; every other community row carries its `projectId`. */
@Entity({ schema: COMMUNITY_SCHEMA, name: 'projects' })
export class Project {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('text', { array: true })
  bundles: Bundle[];

  /** Canonical origins verification links may redirect to (redirect-origins.ts); empty: no redirect. */
  @Column('text', { array: true, default: () => "'{}'" })
  redirectOrigins: string[];

  /** SHA-256 of the `sk_` key; the key itself is shown once at creation. */
  @Column('text', { select: true })
  serviceKeyDigest: string;

  /** SHA-256 of the `mk_` key. */
  @Column('text')
  masterKeyDigest: string;

  @CreateDateColumn({ type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ type: 'timestamptz' })
  updatedAt: Date;
}
