// Files bundled as text by wrangler.toml `rules` (and test/vitest.config.ts for the tests).
declare module "@scalar/api-reference/dist/browser/standalone.js" {
  const source: string;
  export default source;
}
