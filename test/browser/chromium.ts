/**
 * The browser for browser tests: Debian's Chromium (apt-get install chromium; .ci/run installs
 * it), driven by playwright-core. Playwright's own browser downloads are never used.
 */
import { type Browser, chromium } from "playwright-core";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // No sandbox: CI runs as root in a container. The rest keeps Chromium off the network
    // except for the pages a test opens.
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
