import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { withTransaction } from '@acme/platform-persistence';
import { managementTable } from '@acme/management-schema';
import { SigningKey } from '../oauth.entities';

const SIGNING_KEYS = managementTable('signing_keys');

/** Stored signing keys (private keys sealed by the caller): one `current`, one `next`, any `previous`. */
@Injectable()
export class SigningKeyRepository {
  constructor(@InjectRepository(SigningKey) private readonly keys: Repository<SigningKey>) {}

  existsInSlot(slot: 'current' | 'next'): Promise<boolean> {
    return this.keys.existsBy({ slot });
  }

  /** Fills an empty live slot; does nothing when another instance filled it first. */
  async insertIntoEmptySlot(slot: 'current' | 'next', kid: string, sealedPem: string): Promise<void> {
    const since = slot === 'current' ? 'now()' : 'NULL';
    await this.keys.query(
      `INSERT INTO ${SIGNING_KEYS} ("kid", "slot", "private_key_pem", "current_since") VALUES ($1, $2, $3, ${since}) ON CONFLICT DO NOTHING`,
      [kid, slot, sealedPem],
    );
  }

  /** In one transaction: current → previous, next → current, and the given key becomes next. */
  async rotate(nextKid: string, nextSealedPem: string): Promise<void> {
    await withTransaction(this.keys.manager.connection, async (manager) => {
      await manager.query(`SELECT 1 FROM ${SIGNING_KEYS} WHERE "slot" IN ('current', 'next') FOR UPDATE`);
      await manager.query(
        `UPDATE ${SIGNING_KEYS} SET "slot" = 'previous', "current_until" = now() WHERE "slot" = 'current'`,
      );
      await manager.query(
        `UPDATE ${SIGNING_KEYS} SET "slot" = 'current', "current_since" = now() WHERE "slot" = 'next'`,
      );
      await manager.query(`INSERT INTO ${SIGNING_KEYS} ("kid", "slot", "private_key_pem") VALUES ($1, 'next', $2)`, [
        nextKid,
        nextSealedPem,
      ]);
    });
  }

  /** Marks a previous key revoked (once); current and next keys are never touched. */
  async revokePrevious(kid: string): Promise<void> {
    await this.keys.query(
      `UPDATE ${SIGNING_KEYS} SET "revoked_at" = now() WHERE "kid" = $1 AND "slot" = 'previous' AND "revoked_at" IS NULL`,
      [kid],
    );
  }

  listInCreationOrder(): Promise<SigningKey[]> {
    return this.keys.find({ order: { createdAt: 'ASC' } });
  }

  /** Replaces a clear PEM by its sealed form, unless the row changed since it was read. */
  async sealInPlace(kid: string, clearPem: string, sealedPem: string): Promise<void> {
    await this.keys.query(
      `UPDATE ${SIGNING_KEYS} SET "private_key_pem" = $2 WHERE "kid" = $1 AND "private_key_pem" = $3`,
      [kid, sealedPem, clearPem],
    );
  }
}
