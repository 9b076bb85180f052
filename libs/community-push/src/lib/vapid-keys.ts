import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import webpush from 'web-push';
import { PushSettings } from './push.settings';

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
    @InjectDataSource() private readonly dataSource: DataSource,
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
    await this.dataSource.query(
      `INSERT INTO "community"."push_vapid_keys" (id, public_key, private_key) VALUES (1, $1, $2) ON CONFLICT (id) DO NOTHING`,
      [generated.publicKey, generated.privateKey],
    );
    const rows = (await this.dataSource.query(`SELECT public_key, private_key FROM "community"."push_vapid_keys" WHERE id = 1`)) as {
      public_key: string;
      private_key: string;
    }[];
    return { publicKey: rows[0].public_key, privateKey: rows[0].private_key };
  }
}
