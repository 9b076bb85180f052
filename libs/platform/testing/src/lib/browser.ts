import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Debian's Chromium, installed on first use where it is missing (the npm registry ships no browser build
 * Playwright can download here; apt reaches Debian's packages), so a fresh machine needs nothing by hand.
 */
export function ensureChromium(): string {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const apt = (args: string[]) =>
    spawnSync('apt-get', args, { stdio: 'pipe', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (apt(['install', '-y', '-qq', 'chromium']).status !== 0) {
    apt(['update', '-qq']);
    const installed = apt(['install', '-y', '-qq', 'chromium']);
    if (installed.status !== 0) throw new Error(`apt-get install chromium failed: ${installed.stderr.toString()}`);
  }
  return CHROMIUM;
}

/** Headless Chromium with the flags a closed network needs (no background connections); Playwright gives it a fresh profile. */
export async function launchBrowser(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: ensureChromium(),
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
