/**
 * The served documentation. The document's content is checked in Node (test/node: validator,
 * Spectral, generated types); the page is opened in Chromium by test/browser/docs.test.ts.
 */
import scalarBundle from "@scalar/api-reference/dist/browser/standalone.js";
import { describe, expect, it } from "vitest";
import { apiDatabases } from "../support/api";
import { ENDPOINTS } from "../support/endpoints";
import { Client, getJson } from "../support/worker";

const PUBLIC_PATHS = ENDPOINTS.filter((e) => e.spec && e.access === "public").map((e) => e.path);

const PAGE_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; font-src 'self' data:; " +
  "connect-src 'self'; worker-src 'self' blob:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

describe("GET /api/openapi.json", () => {
  it("serves an OpenAPI 3.0 document, version 1.0.0, with every public endpoint, relative to where it was fetched", async () => {
    const dbs = await apiDatabases();
    const { status, body } = await getJson(dbs.env, "/api/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\.0\.\d+$/);
    expect(body.info.version).toBe("1.0.0");
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(PUBLIC_PATHS));
    // Not the request's Host (the client writes it): `/` resolves against where the document was fetched.
    expect(body.servers).toEqual([{ url: "/", description: "The origin this document was fetched from", "x-internal": false }]);
    const forged = await new Client(dbs.env, { origin: "http://evil.example" }).get("/api/openapi.json");
    expect(JSON.stringify(forged.body)).not.toContain("evil.example");
    const configured = await getJson({ ...dbs.env, PUBLIC_ORIGIN: "https://api.example.com" }, "/api/openapi.json");
    expect(configured.body.servers).toEqual([
      { url: "https://api.example.com", description: "The API's public origin", "x-internal": false },
    ]);
  });

  it("documents the filters and every status of the trade history", async () => {
    const dbs = await apiDatabases();
    const { body } = await getJson(dbs.env, "/api/openapi.json");
    const operation = body.paths["/api/transactions/{slug}"].get;
    const parameters = operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(parameters.sort()).toEqual(
      [
        "path:slug",
        "query:page",
        "query:per_page",
        "query:broker",
        "query:stock_code",
        "query:type",
        "query:start_date",
        "query:end_date",
      ].sort(),
    );
    expect(Object.keys(operation.responses).sort()).toEqual(["200", "304", "400", "404", "429", "500", "503"]);
    expect(operation.parameters.find((p: { name: string }) => p.name === "per_page").schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: 10,
    });
  });
});

/** The text an HTML-escaped string stands for. */
const htmlText = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name]!);

describe("GET /api/docs", () => {
  it("lists every operation in the page itself, then loads Scalar's reference from this Worker with one deferred script", async () => {
    const dbs = await apiDatabases();
    const res = await getJson(dbs.env, "/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/html; charset=UTF-8");
    expect(res.headers.get("Content-Security-Policy")).toBe(PAGE_POLICY);
    const page = res.text;
    expect([...page.matchAll(/<script\b[^>]*>/g)].map(([tag]) => tag.replace(/data-configuration="[^"]*"/, "…"))).toEqual([
      '<script src="/api/docs/reference.js" defer>',
      '<script id="api-reference" …>',
    ]);
    const configuration = JSON.parse(page.match(/data-configuration="([^"]*)"/)![1]!.replaceAll("&quot;", '"'));
    expect(configuration).toMatchObject({ url: "/api/openapi.json", withDefaultFonts: false, telemetry: false });
    expect(page).not.toMatch(/https?:\/\//);
    const document = (await getJson(dbs.env, "/api/openapi.json")).body;
    const listed = [
      ...page.matchAll(/<span class="summary">([^<]*)<\/span>\s*<span class="method (\w+)">\w+<\/span><code>([^<]*)<\/code>/g),
    ];
    expect(listed.map(([, summary, method, path]) => [method, path, htmlText(summary!)]).sort()).toEqual(
      ENDPOINTS.map((e) => [e.method, e.path, document.paths[e.path][e.method].summary]).sort(),
    );
  });

  it("serves the loader, which loads Scalar after the first paint and keeps zod from probing for eval", async () => {
    const dbs = await apiDatabases();
    const res = await new Client(dbs.env).fetch("/api/docs/reference.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    const script = await res.text();
    expect(script).toContain("jitless: true");
    expect(script).toContain("requestAnimationFrame(");
    expect(script).toContain('"/api/docs/scalar.js"');
  });

  it("serves Scalar's standalone script itself, byte for byte less the comment naming its unserved source map", async () => {
    const dbs = await apiDatabases();
    const res = await new Client(dbs.env).fetch("/api/docs/scalar.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
    const script = await res.text();
    expect(script.length).toBeGreaterThan(1_000_000);
    expect(scalarBundle).toMatch(/\n\/\/# sourceMappingURL=standalone\.js\.map\s*$/);
    expect(script).not.toContain("sourceMappingURL");
    expect(script).toBe(scalarBundle.slice(0, scalarBundle.lastIndexOf("\n//# sourceMappingURL=") + 1));
  });
});
