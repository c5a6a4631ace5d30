/**
 * The browser for browser tests, driven by playwright-core; nothing is downloaded at run time.
 *
 * Which Chromium runs, first match wins:
 * 1. `CHROMIUM_PATH`, when set: any Chromium or Chrome binary the developer names;
 * 2. on Linux x64, the Chromium that `@sparticuz/chromium` ships inside its npm package, so
 *    `npm install` alone brings a browser (no root, no apt); it is unpacked to a folder of the
 *    temp folder on first use (unpackedChromium);
 * 3. elsewhere (macOS, Windows, Linux on arm), a Chrome or Chromium installed in a usual place.
 * The run's global setup finds it once and hands it to the files; the run prints which one ran,
 * and says what to do when none is found.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
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
    return { path: await unpackedChromium(), origin: "@sparticuz/chromium (npm package)" };
  }
  const installed = INSTALLED.find((path) => existsSync(path));
  if (installed) return { path: installed, origin: "installed on this machine" };
  throw new Error(
    `No Chromium for the browser tests on ${process.platform}/${process.arch}: install Chrome or ` +
      "Chromium, or set CHROMIUM_PATH to its binary.",
  );
}

/**
 * The packaged Chromium, unpacked once per version for every run on the machine. The package
 * unpacks into the temp folder itself and takes a `chromium` file there as done as soon as it
 * exists, while it is still being written (for most of a minute on a loaded machine): a second
 * run that starts meanwhile launches the half-written file and its browser suites fail with
 * `spawn ETXTBSY`, or two runs write the file at once. So the package unpacks here in a child
 * process whose temp folder is a private one, which is then renamed into place whole: a folder
 * under the final name is always complete, and a run that loses the race to rename keeps the
 * winner's.
 */
async function unpackedChromium(): Promise<string> {
  const entry = createRequire(import.meta.url).resolve("@sparticuz/chromium");
  const manifest = join(dirname(entry), "../package.json");
  const { version } = JSON.parse(await readFile(manifest, "utf8")) as { version: string };
  const folder = join(tmpdir(), `sparticuz-chromium-${version}`);
  const binary = join(folder, "chromium");
  if (existsSync(binary)) return binary;

  const staging = await mkdtemp(join(tmpdir(), `sparticuz-chromium-${version}-unpacking-`));
  try {
    const unpack = `import(${JSON.stringify(pathToFileURL(entry).href)}).then((m) => m.default.executablePath())`;
    await promisify(execFile)(process.execPath, ["--input-type=module", "-e", unpack], {
      env: { ...process.env, TMPDIR: staging },
    });
    if (!existsSync(join(staging, "chromium"))) throw new Error(`@sparticuz/chromium unpacked nothing into ${staging}`);
    await rename(staging, folder).catch((error: NodeJS.ErrnoException) => {
      // Another run renamed its complete copy into place first.
      if (!existsSync(binary)) throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return binary;
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: inject("chromium").path, args: FLAGS });
}
