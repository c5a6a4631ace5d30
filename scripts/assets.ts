/**
 * The Worker's static assets (wrangler.toml `[assets]`): build output, filled from node_modules
 * and git-ignored, so the Worker's own bundle stays small and no isolate carries them. Filled by
 * whatever starts wrangler (scripts/wrangler-dev.ts: `npm start` and the browser tests), by the
 * tests' global setup (test/global-setup.ts), by `npm run bundle` and by `npm run deploy`, which
 * runs this file.
 *
 * One file today: Scalar's standalone script, which the API reference loads when a reader asks
 * for "try it" (src/routes/docs.ts), less its last line, which names a source map of 17 MB that
 * is not served (a browser's developer tools would ask for it and get a 404).
 *
 * The folder is src/assets: a new top-level folder is not wanted, and of the existing ones it
 * is what the Worker serves (src/), not tooling (scripts/) or its proof (test/). Everything in
 * it is public, so it holds only what this file writes: it is git-ignored, and nothing is
 * written there by hand.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

/** wrangler.toml's `[assets] directory`. */
export const ASSETS_DIR = join(root, "src/assets");

/** Where each asset is served (its path in the folder too), and what it is made of. */
export const ASSETS: Record<string, () => Buffer> = {
  "api/docs/scalar.js": () => {
    const bundle = readFileSync(join(root, "node_modules/@scalar/api-reference/dist/browser/standalone.js"), "utf8");
    return Buffer.from(bundle.replace(/\n\/\/# sourceMappingURL=[^\n]*\s*$/, "\n"));
  },
};

/**
 * Writes every asset whose content differs from what is there. A file that is already right is
 * left alone, so a running `wrangler dev` (which watches the folder) is not reloaded by another
 * one starting; a changed one is written beside it and renamed over it, so no reader ever sees
 * half a file.
 */
export function fillAssets(): void {
  for (const [path, build] of Object.entries(ASSETS)) {
    const file = join(ASSETS_DIR, path);
    const content = build();
    if (existsSync(file) && readFileSync(file).equals(content)) continue;
    mkdirSync(dirname(file), { recursive: true });
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, content);
    renameSync(partial, file);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  fillAssets();
  console.log(`static assets filled in ${ASSETS_DIR}`);
}
