import { Injectable } from '@nestjs/common';
import { digestSecret, generateSecret } from '@acme/platform-auth';
import { AppKeysRepository } from './repositories/app-keys.repository';
import { Queryable } from './repositories/queryable';
import { RumErrors } from './rum.errors';

export const APP_KEY_PREFIX = 'rum_ak_';
const HINT_LENGTH = 4;

export interface AppKey {
  id: number;
  /** The prefix and the last characters only: enough to tell keys apart, useless to an attacker. */
  masked: string;
  createdAt: Date;
}

/** A key as issued: its value is shown this once. */
export interface IssuedAppKey {
  id: number;
  secret: string;
}

const masked = (hint: string | null) => `${APP_KEY_PREFIX}…${hint ?? '????'}`;

/**
 * An account's app keys (Flashduty lets an account hold several): issued once in clear, stored as a digest
 * with the last four characters for the masked listing, revoked by deletion. Authentication reads the table on
 * every call, so a revoked key stops working on every instance at once.
 */
@Injectable()
export class AppKeysService {
  constructor(private readonly keys: AppKeysRepository) {}

  /** Inside a transaction when given one (account creation issues the first key). */
  async issue(accountId: number, transaction?: Queryable): Promise<IssuedAppKey> {
    const secret = generateSecret(APP_KEY_PREFIX);
    const keys = transaction ? this.keys.in(transaction) : this.keys;
    const id = await keys.insert(accountId, digestSecret(secret), secret.slice(-HINT_LENGTH));
    return { id, secret };
  }

  async list(accountId: number): Promise<AppKey[]> {
    const stored = await this.keys.listOfAccount(accountId);
    return stored.map((key) => ({ id: key.id, masked: masked(key.hint), createdAt: key.createdAt }));
  }

  async revoke(accountId: number, appKeyId: number): Promise<void> {
    if (!(await this.keys.deleteOfAccount(accountId, appKeyId))) throw RumErrors.appKeyNotFound();
  }
}
