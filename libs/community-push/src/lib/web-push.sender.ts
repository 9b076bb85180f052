import { Injectable, Logger } from '@nestjs/common';
import webpush, { WebPushError } from 'web-push';
import { PushDeviceService } from './push-device.service';
import { PushSettings } from './push.settings';
import { VapidKeyStore } from './vapid-keys';

export interface PushMessage {
  title: string;
  body?: string;
  data?: Record<string, unknown>;
}

export interface PushReport {
  /** Web devices the push service accepted the message for. */
  delivered: number;
  failed: number;
  /** Subscriptions the push service reported gone (404/410), deleted. */
  removed: number;
  /** ios/android devices: no APNs/FCM transport is configured in this deployment. */
  skipped: number;
}

/** Delivers a notification to every web push subscription of a user (RFC 8291 encryption, VAPID). */
@Injectable()
export class PushSender {
  private readonly logger = new Logger(PushSender.name);

  constructor(
    private readonly devices: PushDeviceService,
    private readonly vapid: VapidKeyStore,
    private readonly settings: PushSettings,
  ) {}

  async sendToUser(projectId: string, userId: string, message: PushMessage): Promise<PushReport> {
    const report: PushReport = { delivered: 0, failed: 0, removed: 0, skipped: 0 };
    const keys = await this.vapid.get();
    const payload = JSON.stringify(message);
    for (const device of await this.devices.listForUser(projectId, userId)) {
      if (device.platform !== 'web' || !device.p256dh || !device.auth) {
        report.skipped += 1;
        continue;
      }
      try {
        await webpush.sendNotification({ endpoint: device.deviceKey, keys: { p256dh: device.p256dh, auth: device.auth } }, payload, {
          vapidDetails: { subject: this.settings.vapidSubject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: 3600,
          timeout: this.settings.timeoutMs,
          contentEncoding: 'aes128gcm',
        });
        report.delivered += 1;
      } catch (error) {
        const status = error instanceof WebPushError ? error.statusCode : undefined;
        if (status === 404 || status === 410) {
          await this.devices.remove(projectId, device.id);
          report.removed += 1;
        } else {
          // The endpoint is a capability URL: log only the device id.
          this.logger.warn({ deviceId: device.id, status }, 'web push delivery failed');
          report.failed += 1;
        }
      }
    }
    return report;
  }
}
