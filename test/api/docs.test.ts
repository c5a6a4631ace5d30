/** The served documentation. The document's validity is checked in Node: test/node/openapi.test.ts. */
import { describe, expect, it } from "vitest";
import { apiDatabases } from "../support/api";
import { ENDPOINTS } from "../support/endpoints";
import { getJson } from "../support/worker";

const PUBLIC_PATHS = ENDPOINTS.filter((e) => e.spec && e.access === "public").map((e) => e.path);

describe("GET /api/openapi.json", () => {
  it("serves an OpenAPI 3.0 document, version 1.0.0, with every public endpoint", async () => {
    const dbs = await apiDatabases();
    const { status, body } = await getJson(dbs.env, "/api/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toMatch(/^3\.0\.\d+$/);
    expect(body.info.version).toBe("1.0.0");
    expect(Object.keys(body.paths)).toEqual(expect.arrayContaining(PUBLIC_PATHS));
  });

  it("documents the filters and every error status of the trade history", async () => {
    const dbs = await apiDatabases();
    const { body } = await getJson(dbs.env, "/api/openapi.json");
    const operation = body.paths["/api/transactions/{slug}"].get;
    const parameters = operation.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`);
    expect(parameters.sort()).toEqual(
      ["path:slug", "query:page", "query:per_page", "query:broker", "query:stock_code", "query:type", "query:start_date", "query:end_date"].sort(),
    );
    expect(Object.keys(operation.responses).sort()).toEqual(["200", "400", "404", "429", "500", "503"]);
    expect(operation.parameters.find((p: { name: string }) => p.name === "per_page").schema).toMatchObject({
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: 10,
    });
  });
});

describe("GET /api/docs", () => {
  it("renders the document as a self-contained page listing every operation", async () => {
    const dbs = await apiDatabases();
    const res = await getJson(dbs.env, "/api/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(res.headers.get("Content-Security-Policy")).toBe("default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'");
    const page = res.text;
    for (const path of PUBLIC_PATHS) expect(page).toContain(`<code>${path}</code>`);
    expect(page).not.toMatch(/<script|<link/);
  });
});
