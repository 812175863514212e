/**
 * Debian's Chromium driven by playwright-core, the way every browser test here starts it.
 *
 * `CHROMIUM_PATH` overrides `/usr/bin/chromium` (the `chromium` package, installed by
 * scripts/test-system-deps.sh). The flags keep a headless Chromium off this machine's closed
 * network (no background networking, component updates or sync) and let it run as root
 * (`--no-sandbox`).
 */
import { chromium, type Browser } from 'playwright-core';

/** The Chromium binary the browser tests drive. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Starts a headless Chromium; close it with `browser.close()` in `afterAll`. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
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
