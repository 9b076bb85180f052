import { createHmac } from 'node:crypto';

/** One key per purpose from the app's secret, so a leak of one purpose's key exposes nothing else. */
export function deriveKey(secret: string, purpose: string): Buffer {
  return createHmac('sha256', secret).update(`community:${purpose}`).digest();
}
