import { Column, Entity, PrimaryColumn, Unique } from 'typeorm';
import { MANAGEMENT_SCHEMA } from '@acme/management-schema';

@Entity({ name: 'clients', schema: MANAGEMENT_SCHEMA })
export class Client {
  /** Generated (32 alphanumerics) or an `https://` URI for a client identified by its metadata document. */
  @PrimaryColumn({ type: 'varchar', length: 245 })
  clientId!: string;

  @Column({ type: 'varchar', length: 255 })
  name!: string;

  /** HMAC-SHA-256 of the secret under the server-side key; the secret itself is shown once. */
  @Column({ type: 'varchar', length: 64 })
  secretDigest!: string;

  @Column({ type: 'boolean' })
  isFirstParty!: boolean;

  @Column({ type: 'text', array: true })
  grantTypes!: string[];

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'text', nullable: true })
  description!: string | null;

  @Column({ type: 'varchar', length: 32, nullable: true })
  appType!: string | null;

  /** Auth0's `client_metadata`: up to 10 string properties. */
  @Column({ type: 'jsonb', default: {} })
  clientMetadata!: Record<string, string>;

  @Column({ type: 'jsonb', nullable: true })
  jwtConfiguration!: object | null;

  @Column({ type: 'varchar', length: 32, default: 'client_secret_post' })
  tokenEndpointAuthMethod!: string;
}

@Entity({ name: 'client_grants', schema: MANAGEMENT_SCHEMA })
@Unique('uq_client_grants_client_audience', ['clientId', 'audience'])
export class ClientGrant {
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id!: string;

  @Column({ type: 'varchar', length: 245 })
  clientId!: string;

  @Column({ type: 'varchar', length: 600 })
  audience!: string;

  @Column({ type: 'text', array: true })
  scope!: string[];

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;
}

/** Generated signing keys shared by every instance: one `current`, one `next`, any `previous` (revocable). */
@Entity({ name: 'signing_keys', schema: MANAGEMENT_SCHEMA })
export class SigningKey {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  kid!: string;

  @Column({ type: 'varchar', length: 16 })
  slot!: 'current' | 'next' | 'previous';

  @Column({ type: 'text' })
  privateKeyPem!: string;

  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  currentSince!: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  currentUntil!: Date | null;

  @Column({ type: 'timestamptz', precision: 3, nullable: true })
  revokedAt!: Date | null;
}
