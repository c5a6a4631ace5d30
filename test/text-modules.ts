/**
 * The tests' counterpart of wrangler.toml's Text `rules`: Vite would resolve the import through
 * the package's `exports` (which hide the file) and run it as JavaScript, while wrangler bundles
 * it as a string. This loads it as a string module, as wrangler does.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Plugin } from "vite";

const TEXT_MODULES = ["@scalar/api-reference/dist/browser/standalone.js"];
/**
 * A virtual id that names no file, so no environment runs it as a dependency or applies the
 * wrangler rule to it a second time.
 */
const PREFIX = "\0text-module:";

export function textModules(): Plugin {
  return {
    name: "text-modules",
    enforce: "pre",
    resolveId(source) {
      const index = TEXT_MODULES.indexOf(source);
      return index === -1 ? null : `${PREFIX}${index}`;
    },
    load(id) {
      if (!id.startsWith(PREFIX)) return null;
      const file = fileURLToPath(new URL(`../node_modules/${TEXT_MODULES[Number(id.slice(PREFIX.length))]}`, import.meta.url));
      return `export default ${JSON.stringify(readFileSync(file, "utf8"))};`;
    },
  };
}
