import { Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { digestSecret, generateSecret } from '@acme/platform-auth';
import { withTransaction } from '@acme/platform-persistence';
import { AppKeysService } from './app-keys.service';
import { AccountsRepository } from './repositories/accounts.repository';
import { Access, ApplicationsRepository } from './repositories/applications.repository';
import { RumErrors } from './rum.errors';

export type { Access };

export interface Account {
  id: number;
  name: string;
  /** The app key the call was made with (audit entries name it, never its value). */
  appKeyId?: number;
}

export interface NewAccount {
  accountId: number;
  appKeyId: number;
  /** Shown this once. */
  appKey: string;
}

export interface ClientTokenTarget {
  applicationId: string;
  ruleSetVersion: number;
}

const CLIENT_TOKEN_PREFIX = 'rum_ct_';

/** Accounts, applications, per-application access and ingest client tokens. Secrets are stored as SHA-256 digests. */
@Injectable()
export class AccountsService {
  constructor(
    private readonly db: DataSource,
    private readonly accounts: AccountsRepository,
    private readonly applications: ApplicationsRepository,
    private readonly appKeys: AppKeysService,
  ) {}

  async createAccount(name: string): Promise<NewAccount> {
    return withTransaction(this.db, async (manager) => {
      const accountId = await this.accounts.in(manager).insert(name);
      const key = await this.appKeys.issue(accountId, manager);
      return { accountId, appKeyId: key.id, appKey: key.secret };
    });
  }

  /** The account an app key belongs to; lookup by digest, so the presented key is never compared as text. */
  async authenticate(appKey: string | undefined): Promise<Account> {
    if (!appKey || appKey.length > 256) throw RumErrors.appKeyInvalid();
    const account = await this.accounts.findByAppKeyDigest(digestSecret(appKey));
    if (!account) throw RumErrors.appKeyInvalid();
    return account;
  }

  async requireAccount(accountId: number): Promise<void> {
    if (!(await this.accounts.exists(accountId))) throw RumErrors.accountNotFound();
  }

  /** Returns the new application's id. */
  async createApplication(name: string, ownerAccountId: number): Promise<string> {
    await this.requireAccount(ownerAccountId);
    const id = randomBytes(12).toString('hex');
    await this.applications.insert(id, name, ownerAccountId);
    return id;
  }

  async setAccess(applicationId: string, accountId: number, access: Access): Promise<void> {
    await this.requireApplication(applicationId);
    await this.requireAccount(accountId);
    await this.applications.upsertAccess(applicationId, accountId, access);
  }

  /** The owner may write; others have what was granted; an unknown application grants nothing. */
  async accessOf(applicationId: string, accountId: number): Promise<Access | undefined> {
    const grant = await this.applications.grantOf(applicationId, accountId);
    if (!grant) return undefined;
    return grant.ownerAccountId === accountId ? 'write' : grant.granted;
  }

  async requireAccess(applicationId: string, accountId: number, needed: Access): Promise<void> {
    const granted = await this.accessOf(applicationId, accountId);
    if (granted === undefined || (needed === 'write' && granted !== 'write')) throw RumErrors.applicationAccessDenied();
  }

  /** Returns the token, shown this once. */
  async createClientToken(applicationId: string): Promise<string> {
    await this.requireApplication(applicationId);
    const token = generateSecret(CLIENT_TOKEN_PREFIX);
    await this.applications.insertClientToken(applicationId, digestSecret(token));
    return token;
  }

  /** The application a client token feeds, with its current rule-set version (the ingest path's version check). */
  async resolveClientToken(token: string | undefined): Promise<ClientTokenTarget> {
    if (!token || token.length > 256) throw RumErrors.clientTokenInvalid();
    const target = await this.applications.findByClientTokenDigest(digestSecret(token));
    if (!target) throw RumErrors.clientTokenInvalid();
    return target;
  }

  private async requireApplication(applicationId: string): Promise<void> {
    if (!(await this.applications.exists(applicationId))) throw RumErrors.applicationNotFound();
  }
}
