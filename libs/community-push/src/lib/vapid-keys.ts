import { Injectable, OnModuleInit } from '@nestjs/common';
import { CommunitySettings } from '@acme/community';
import { derivePurposeKey, isSealed, openSecret, sealSecret } from '@acme/platform-auth';
import { PushSettings } from './push.settings';
import { VapidKeyRepository } from './repositories/vapid-key.repository';
import { webPush } from './web-push-library';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The deployment's VAPID key pair: from settings when given, otherwise generated once and stored in Postgres
 * (first writer wins), so every instance signs with the same key. The stored private key is sealed at rest
 * (AES-256-GCM under a key derived from the community auth secret, as the management signing key is): a dump of
 * the database alone cannot push to subscribers.
 */
@Injectable()
export class VapidKeyStore implements OnModuleInit {
  private keys?: Promise<VapidKeys>;
  private readonly sealingKey: Buffer;

  constructor(
    private readonly stored: VapidKeyRepository,
    private readonly settings: PushSettings,
    community: CommunitySettings,
  ) {
    this.sealingKey = derivePurposeKey(community.authSecret, 'community vapid private key at rest');
  }

  /** Start-up step: a pair stored in clear (before keys were sealed) is sealed in place; a sealed one must open. */
  async onModuleInit(): Promise<void> {
    const row = await this.stored.find();
    if (!row) return;
    if (!isSealed(row.privateKey))
      await this.stored.sealInPlace(row.privateKey, sealSecret(row.privateKey, this.sealingKey));
    // With a configured pair the stored one is unused; otherwise it must open now, not at the first push.
    if (!this.configured()) await this.get();
  }

  get(): Promise<VapidKeys> {
    this.keys ??= this.load().catch((error) => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }

  private configured(): VapidKeys | undefined {
    const { vapidPublicKey, vapidPrivateKey } = this.settings;
    return vapidPublicKey && vapidPrivateKey ? { publicKey: vapidPublicKey, privateKey: vapidPrivateKey } : undefined;
  }

  private async load(): Promise<VapidKeys> {
    const configured = this.configured();
    if (configured) return configured;
    const generated = webPush().generateVAPIDKeys();
    const stored = await this.stored.storeOnce({
      publicKey: generated.publicKey,
      privateKey: sealSecret(generated.privateKey, this.sealingKey),
    });
    return { publicKey: stored.publicKey, privateKey: await this.unseal(stored.privateKey) };
  }

  private async unseal(value: string): Promise<string> {
    if (!isSealed(value)) {
      await this.stored.sealInPlace(value, sealSecret(value, this.sealingKey));
      return value;
    }
    try {
      return openSecret(value, this.sealingKey);
    } catch {
      throw new Error(
        'The stored VAPID private key does not open with COMMUNITY_AUTH_SECRET (was it changed?); restore it or set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY',
      );
    }
  }
}
