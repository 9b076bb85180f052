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
  // Test files run in parallel: one installs under a lock, the others wait for it and then find the binary.
  const install = `test -x ${CHROMIUM} || apt-get install -y -qq chromium || (apt-get update -qq && apt-get install -y -qq chromium)`;
  const result = spawnSync('flock', ['/tmp/acme-chromium-install.lock', 'sh', '-c', install], {
    stdio: 'pipe',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    timeout: 600_000,
  });
  if (result.status !== 0 || !existsSync(CHROMIUM))
    throw new Error(
      `installing Chromium (apt-get install chromium) failed: ${result.stderr?.toString() ?? result.error}`,
    );
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
