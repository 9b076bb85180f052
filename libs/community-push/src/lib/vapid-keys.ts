import { Injectable } from '@nestjs/common';
import webpush from 'web-push';
import { PushSettings } from './push.settings';
import { VapidKeyRepository } from './repositories/vapid-key.repository';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

/**
 * The deployment's VAPID key pair: from settings when given, otherwise generated once and stored in
 * Postgres (first writer wins), so every instance signs with the same key.
 */
@Injectable()
export class VapidKeyStore {
  private keys?: Promise<VapidKeys>;

  constructor(
    private readonly stored: VapidKeyRepository,
    private readonly settings: PushSettings,
  ) {}

  get(): Promise<VapidKeys> {
    this.keys ??= this.load().catch((error) => {
      this.keys = undefined;
      throw error;
    });
    return this.keys;
  }

  private async load(): Promise<VapidKeys> {
    const { vapidPublicKey, vapidPrivateKey } = this.settings;
    if (vapidPublicKey && vapidPrivateKey) return { publicKey: vapidPublicKey, privateKey: vapidPrivateKey };
    const generated = webpush.generateVAPIDKeys();
    return this.stored.storeOnce(generated);
  }
}
