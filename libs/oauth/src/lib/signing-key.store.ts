import { Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { derivePurposeKey, isSealed, openSecret, sealSecret } from '@acme/platform-auth';
import { safeErrorMessage } from '@acme/platform-observability';
import { RedisPubSub } from '@acme/platform-redis';
import { OAuthErrors } from './oauth.errors';
import { SigningKey } from './oauth.entities';
import { OAuthSettings } from './oauth.settings';
import { SigningKeyRepository } from './repositories/signing-key.repository';
import { KeyCertificate, keyCertificate, KeyMaterial, keyMaterial, PublicJwk } from './signing-key-material';

export type { PublicJwk } from './signing-key-material';

export const SIGNING_KEYS_CHANNEL = 'oauth:signing-keys:changed';

export interface LoadedKey extends KeyMaterial {
  slot: SigningKey['slot'];
  certificate: KeyCertificate;
  createdAt: Date;
  currentSince: Date | null;
  currentUntil: Date | null;
  revokedAt: Date | null;
}

const generateKeyPairAsync = promisify(generateKeyPair);

/** A new RSA key, generated on libuv's thread pool: the synchronous call held the event loop 0.5-2 s (issue 25). */
const newPem = async (): Promise<string> =>
  (
    await generateKeyPairAsync('rsa', {
      modulusLength: 2048,
      publicKeyEncoding: { format: 'pem', type: 'spki' },
      privateKeyEncoding: { format: 'pem', type: 'pkcs8' },
    })
  ).privateKey;

/**
 * The RS256 keys every instance signs and verifies with. The configured PEM (MANAGEMENT_SIGNING_KEY) is the one
 * key when set; otherwise keys are generated and stored sealed (AES-256-GCM under a key derived from the
 * client-secret key): one `current` signs, one `next` is published ahead of rotation, `previous` ones still
 * verify until revoked. A rotation or revocation on one instance reaches every other over Redis at once
 * (a 30 s reload is the backstop). Instances starting together race on unique slots; losers read the winner's.
 */
@Injectable()
export class SigningKeyStore implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger(SigningKeyStore.name);
  private keys: LoadedKey[] = [];
  private usable = '';
  /** Changes whenever the set of keys that verify tokens changes (a revocation): verified-token caches reset on it. */
  revision = 0;
  private timer?: NodeJS.Timeout;
  private unsubscribe?: () => void;

  constructor(
    private readonly settings: OAuthSettings,
    private readonly rows: SigningKeyRepository,
    private readonly pubsub: RedisPubSub,
  ) {}

  get configured(): boolean {
    return this.settings.signingKeyPem !== undefined;
  }

  async onModuleInit(): Promise<void> {
    if (this.configured) {
      const material = keyMaterial(this.settings.signingKeyPem as string);
      const epoch = new Date(0);
      this.keys = [
        {
          ...material,
          slot: 'current',
          certificate: await keyCertificate(material, this.subject, epoch),
          createdAt: epoch,
          currentSince: epoch,
          currentUntil: null,
          revokedAt: null,
        },
      ];
      return;
    }
    await this.ensureSlot('current');
    await this.ensureSlot('next');
    this.unsubscribe = await this.pubsub.subscribe(SIGNING_KEYS_CHANNEL, () => this.reloadQuietly());
    await this.reload();
    this.timer = setInterval(() => this.reloadQuietly(), 30_000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
    this.unsubscribe?.();
  }

  current(): LoadedKey {
    const key = this.keys.find((candidate) => candidate.slot === 'current');
    if (!key) throw new Error('Signing key not loaded yet');
    return key;
  }

  /** Verification key for a token's `kid`: any key not revoked (a token of a previous key stays valid until then). */
  publicKeyFor(kid: string | undefined): string | undefined {
    return this.keys.find((key) => key.kid === kid && key.revokedAt === null)?.publicKeyPem;
  }

  /** Current, next and unrevoked previous keys, each with its certificate chain (`x5c`). */
  jwks(): { keys: PublicJwk[] } {
    return {
      keys: this.keys
        .filter((key) => key.revokedAt === null)
        .map((key) => ({ ...key.jwk, x5c: [key.certificate.der] })),
    };
  }

  list(): LoadedKey[] {
    return [...this.keys];
  }

  get(kid: string): LoadedKey {
    const key = this.keys.find((candidate) => candidate.kid === kid);
    if (!key) throw OAuthErrors.signingKeyNotFound(kid);
    return key;
  }

  /** next → current, current → previous, and a new next; every instance signs with the new current at once. */
  async rotate(): Promise<LoadedKey> {
    this.refuseWhenConfigured();
    const pem = await newPem();
    await this.rows.rotate(keyMaterial(pem).kid, sealSecret(pem, this.sealingKey));
    await this.changed();
    return this.current();
  }

  /** Only a previous key can be revoked; tokens it signed are refused on every instance at once. */
  async revoke(kid: string): Promise<LoadedKey> {
    this.refuseWhenConfigured();
    const key = this.get(kid);
    if (key.slot !== 'previous')
      throw OAuthErrors.signingKeyConflict(`The ${key.slot} signing key cannot be revoked; rotate first.`);
    await this.rows.revokePrevious(kid);
    await this.changed();
    return this.get(kid);
  }

  private refuseWhenConfigured(): void {
    if (this.configured)
      throw OAuthErrors.signingKeyConflict('The signing key is configured by MANAGEMENT_SIGNING_KEY; change it there.');
  }

  private async changed(): Promise<void> {
    await this.reload();
    await this.pubsub
      .publish(SIGNING_KEYS_CHANNEL, 'changed')
      .catch((error: unknown) =>
        this.logger.warn(`Could not publish a signing-key change: ${safeErrorMessage(error)}`),
      );
  }

  private get subject(): string {
    return new URL(this.settings.issuer).host;
  }

  private get sealingKey(): Buffer {
    return derivePurposeKey(this.settings.clientSecretKey, 'management signing key at rest');
  }

  private async ensureSlot(slot: 'current' | 'next'): Promise<void> {
    if (await this.rows.existsInSlot(slot)) return;
    const pem = await newPem();
    await this.rows.insertIntoEmptySlot(slot, keyMaterial(pem).kid, sealSecret(pem, this.sealingKey));
  }

  private reloadQuietly(): void {
    this.reload().catch((error: unknown) =>
      this.logger.warn(`Reloading signing keys failed: ${safeErrorMessage(error)}`),
    );
  }

  private async reload(): Promise<void> {
    const rows = await this.rows.listInCreationOrder();
    const loaded: LoadedKey[] = [];
    for (const row of rows) {
      const material = keyMaterial(await this.unseal(row));
      const certificate = (
        this.keys.find((key) => key.kid === row.kid) ?? {
          certificate: await keyCertificate(material, this.subject, row.createdAt),
        }
      ).certificate;
      loaded.push({
        ...material,
        slot: row.slot,
        certificate,
        createdAt: row.createdAt,
        currentSince: row.currentSince,
        currentUntil: row.currentUntil,
        revokedAt: row.revokedAt,
      });
    }
    this.keys = loaded;
    const usable = loaded
      .filter((key) => key.revokedAt === null)
      .map((key) => key.kid)
      .join(',');
    if (usable !== this.usable) {
      this.usable = usable;
      this.revision += 1;
    }
  }

  /** A row written before keys were sealed holds the PEM in clear: it is sealed in place on first read. */
  private async unseal(row: SigningKey): Promise<string> {
    if (!isSealed(row.privateKeyPem)) {
      await this.rows.sealInPlace(row.kid, row.privateKeyPem, sealSecret(row.privateKeyPem, this.sealingKey));
      return row.privateKeyPem;
    }
    try {
      return openSecret(row.privateKeyPem, this.sealingKey);
    } catch {
      throw new Error(
        'The stored signing key does not open with MANAGEMENT_CLIENT_SECRET_KEY (was it changed?); restore it or set MANAGEMENT_SIGNING_KEY',
      );
    }
  }
}
