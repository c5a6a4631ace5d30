/**
 * The browser for browser tests, driven by playwright-core; nothing is downloaded at run time.
 *
 * Which Chromium runs, first match wins:
 * 1. `CHROMIUM_PATH`, when set: any Chromium or Chrome binary the developer names;
 * 2. on Linux x64, the Chromium that `@sparticuz/chromium` ships inside its npm package, so
 *    `npm install` alone brings a browser (no root, no apt); it is unpacked to the temp folder
 *    on first use;
 * 3. elsewhere (macOS, Windows, Linux on arm), a Chrome or Chromium installed in a usual place.
 * The run's global setup finds it once (the package's unpacking is not safe to race: two files
 * unpacking at once fail with ETXTBSY) and hands it to the files; the run prints which one ran,
 * and says what to do when none is found.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";
import { inject } from "vitest";

/** The launch flags: headless, no sandbox (CI runs as root), and off the network except for the
 * pages a test opens (without the background flags Chromium keeps dialling out, and is refused). */
const FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const INSTALLED = [
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe",
  "C:\\Program Files (x86)\\Google\\Chrome\\Application\\chrome.exe",
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];

export interface FoundChromium {
  path: string;
  origin: string;
}

/** For the global setup (test/global-setup.ts). */
export async function findChromium(): Promise<FoundChromium> {
  const named = process.env.CHROMIUM_PATH;
  if (named) return { path: named, origin: "CHROMIUM_PATH" };
  if (process.platform === "linux" && process.arch === "x64") {
    const packaged = (await import("@sparticuz/chromium")).default;
    return { path: await packaged.executablePath(), origin: "@sparticuz/chromium (npm package)" };
  }
  const installed = INSTALLED.find((path) => existsSync(path));
  if (installed) return { path: installed, origin: "installed on this machine" };
  throw new Error(
    `No Chromium for the browser tests on ${process.platform}/${process.arch}: install Chrome or ` +
      "Chromium, or set CHROMIUM_PATH to its binary.",
  );
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: inject("chromium").path, args: FLAGS });
}
