import { Column, Entity, Index, PrimaryColumn, Unique } from 'typeorm';
import { MANAGEMENT_SCHEMA } from '@acme/management-schema';
import { PolicyConfiguration, PolicyConsumer, PolicyResource } from './policy-rules';

/** One rate-limit policy; `(created_at, id)` is the list order and the keyset of its cursor. */
@Entity({ name: 'rate_limit_policies', schema: MANAGEMENT_SCHEMA })
@Unique('uq_rate_limit_policies_target', ['resource', 'consumer', 'consumerSelector'])
@Index('ix_rate_limit_policies_order', ['createdAt', 'id'])
export class RateLimitPolicy {
  @PrimaryColumn({ type: 'varchar', length: 26 })
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  resource!: PolicyResource;

  @Column({ type: 'varchar', length: 32 })
  consumer!: PolicyConsumer;

  @Column({ type: 'varchar', length: 255 })
  consumerSelector!: string;

  @Column({ type: 'jsonb' })
  configuration!: PolicyConfiguration;

  /** Millisecond precision so a JS Date round-trips exactly through the cursor. */
  @Column({ type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ type: 'timestamptz', precision: 3 })
  updatedAt!: Date;
}
