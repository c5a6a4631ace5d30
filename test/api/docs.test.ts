/**
 * The served documentation. The document's content is checked in Node (test/node: validator,
 * Spectral, generated types); the page is opened in Chromium by test/browser/docs.test.ts.
 */
import { env } from "cloudflare:workers";
import { html } from "hono/html";
import { describe, expect, it } from "vitest";
import { inlineMarkdown } from "../../src/routes/docs-page";
import { apiDatabases } from "../support/api";
import { ENDPOINTS } from "../support/endpoints";
import { Client, getJson } from "../support/worker";

const PUBLIC_PATHS = ENDPOINTS.filter((e) => e.access === "public").map((e) => e.path);

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
  it("lists every operation in the page itself, with one deferred script and a hidden button that loads Scalar's reference", async () => {
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
    expect(page).toContain(
      '<p class="try"><button type="button" id="try-it" hidden>Open the interactive reference, with requests to try</button></p>',
    );
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

  it("renders the descriptions' code spans as code, and prints no backtick", async () => {
    const dbs = await apiDatabases();
    const page = (await getJson(dbs.env, "/api/docs")).text;
    expect(page).toContain("<code>X-Admin-Key</code>");
    expect(page).toContain("Runs <code>select 1</code> on the target database.");
    // The descriptions use code spans (the info's, a tag's, operations'), and none is left as backticks.
    expect(page).toContain("Every response carries <code>success</code>");
    expect(page.replace(/<script id="api-reference"[^>]*>/, "")).not.toContain("`");
  });

  it("escapes what a code span holds, and prints a backtick with no partner as it is", async () => {
    expect(String(await html`<p>${inlineMarkdown("a `<b>` and `x` then ` alone")}</p>`)).toBe(
      "<p>a <code>&lt;b&gt;</code> and <code>x</code> then ` alone</p>",
    );
  });

  it("serves the loader, which shows the button, loads Scalar when it is pressed, and keeps zod from probing for eval", async () => {
    const dbs = await apiDatabases();
    const res = await new Client(dbs.env).fetch("/api/docs/reference.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/javascript; charset=utf-8");
    const script = await res.text();
    expect(script).toContain("jitless: true");
    expect(script).toContain('document.getElementById("try-it")');
    expect(script).toContain('addEventListener("click"');
    expect(script).toContain('"/api/docs/scalar.js"');
    // Nothing loads by itself: no paint observer, frame callback or timer.
    expect(script).not.toMatch(/PerformanceObserver|requestAnimationFrame|setTimeout/);
  });

  it("serves Scalar's script from the Worker's static assets, less the comment naming its unserved source map", async () => {
    const dbs = await apiDatabases();
    const res = await new Client(dbs.env).fetch("/api/docs/scalar.js");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^(text|application)\/javascript\b/);
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=3600");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const script = await res.text();
    expect(script.length).toBeGreaterThan(1_000_000);
    expect(script).toContain("createApiReference");
    expect(script).not.toContain("sourceMappingURL");
    // What the assets binding holds (scripts/assets.ts filled it), byte for byte.
    const asset = await env.ASSETS.fetch("https://assets.invalid/api/docs/scalar.js");
    expect(asset.status).toBe(200);
    expect(script).toBe(await asset.text());
  });

  it("answers a revalidation of Scalar's script with 304 and no body", async () => {
    const dbs = await apiDatabases();
    const client = new Client(dbs.env);
    const etag = (await client.fetch("/api/docs/scalar.js")).headers.get("ETag");
    expect(etag).toBeTruthy();
    const again = await client.fetch("/api/docs/scalar.js", { headers: { "If-None-Match": etag! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
    expect(again.headers.get("X-Content-Type-Options")).toBe("nosniff");
  });
});
