import { Injectable, Logger } from '@nestjs/common';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { privateEndpointReason, publicOnlyLookup } from './endpoint-address';
import { webPush } from './web-push-library';
import { PushDeviceService } from './push-device.service';
import { PushSettings } from './push.settings';
import { VapidKeys, VapidKeyStore } from './vapid-keys';

export interface PushMessage {
  title: string;
  body?: string;
  data?: Record<string, unknown>;
}

/** Sends of one notification in flight at once: a user's devices no longer wait on each other one by one. */
export const PUSH_SEND_CONCURRENCY = 4;

/** Runs `work` over `items`, at most `limit` at a time. */
async function eachBounded<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) await work(items[next++] as T);
  });
  await Promise.all(lanes);
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
    const devices = await this.devices.listForUser(projectId, userId);
    await eachBounded(devices, PUSH_SEND_CONCURRENCY, async (device) => {
      if (device.platform !== 'web' || !device.p256dh || !device.auth) {
        report.skipped += 1;
        return;
      }
      const status = await this.deliver(device.deviceKey, device.p256dh, device.auth, payload, keys);
      if (status !== undefined && status >= 200 && status < 300) report.delivered += 1;
      else if (status === 404 || status === 410) {
        await this.devices.remove(projectId, device.id);
        report.removed += 1;
      } else {
        // The endpoint is a capability URL: log only the device id.
        this.logger.warn({ deviceId: device.id, status }, 'web push delivery failed');
        report.failed += 1;
      }
    });
    return report;
  }

  /**
   * web-push builds the encrypted (aes128gcm) body and VAPID headers; we send them ourselves so http endpoints
   * (local push services) work, the deadline is ours (whole request, not socket idle), and the socket only ever connects to a public address
   * unless private endpoints are allowed (docs/security.md, SSRF). Undefined: no answer at all.
   */
  private async deliver(
    endpoint: string,
    p256dh: string,
    auth: string,
    payload: string,
    keys: VapidKeys,
  ): Promise<number | undefined> {
    try {
      // Throws for keys that are not a valid P-256 point / auth secret: counted as a failed delivery.
      const details = webPush().generateRequestDetails({ endpoint, keys: { p256dh, auth } }, payload, {
        vapidDetails: { subject: this.settings.vapidSubject, publicKey: keys.publicKey, privateKey: keys.privateKey },
        TTL: 3600,
        contentEncoding: 'aes128gcm',
      });
      const url = new URL(details.endpoint);
      // A stored endpoint may predate the rule, and an IP literal skips the lookup below.
      if (!this.settings.allowPrivateEndpoints && privateEndpointReason(url)) return undefined;
      return await sendRequest(
        url,
        details.method,
        details.headers as Record<string, string>,
        details.body ?? undefined,
        {
          timeoutMs: this.settings.timeoutMs,
          lookup: this.settings.allowPrivateEndpoints ? undefined : publicOnlyLookup,
        },
      );
    } catch {
      return undefined;
    }
  }
}

/**
 * One request without following redirects; resolves with the status once the body is read. `timeoutMs` is a total
 * deadline (connect, send, answer, body): an endpoint that trickles bytes is cut off there, where a socket idle
 * timeout would wait forever (issue 25).
 */
function sendRequest(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer | undefined,
  options: { timeoutMs: number; lookup?: LookupFunction },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('push request passed its deadline')), options.timeoutMs);
    const settle = (outcome: () => void) => {
      clearTimeout(timer);
      outcome();
    };
    const req = send(url, { method, headers, lookup: options.lookup, signal: deadline.signal }, (response) => {
      response.resume();
      response.on('end', () => settle(() => resolve(response.statusCode ?? 0)));
      response.on('error', (error) => settle(() => reject(error)));
      response.on('aborted', () => settle(() => reject(new Error('push response aborted'))));
    });
    req.on('error', (error) => settle(() => reject(error)));
    req.end(body);
  });
}
