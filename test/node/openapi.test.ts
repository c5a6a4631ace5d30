/**
 * The OpenAPI document, checked by a real OpenAPI validator. Validators compile JSON Schema to
 * code, which workerd forbids, so this suite runs in Node against the app itself.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { app } from "../../src/app";
import { ENDPOINTS } from "../support/endpoints";

// Never contacted: the document is generated without touching a database.
const env = { DATABASE_URL: "postgres://x@127.0.0.1:1/investments" };

async function openApiDocument() {
  const res = await app.request("/api/openapi.json", {}, env);
  expect(res.status).toBe(200);
  return (await res.json()) as { openapi: string; info: { version: string }; paths: Record<string, Record<string, unknown>> };
}

/** Spec §4, rows 1 to 9, with the 4.4 path DESIGN §5 chose. */
const SPEC_OPERATIONS = ENDPOINTS.filter((e) => e.spec).map((e) => [e.method, e.path] as const);

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.0 document, version 1.0.0", async () => {
    const document = await openApiDocument();
    const validator = new Validator();
    const result = await validator.validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.0");
    expect(document.info.version).toBe("1.0.0");
  });

  it("lists exactly the operations of the endpoint registry the suites iterate (test/support/endpoints.ts)", async () => {
    const document = await openApiDocument();
    const documented = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method} ${path}`));
    expect(documented.sort()).toEqual(ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort());
  });

  it("has the spec's nine operations", () => {
    expect(SPEC_OPERATIONS.map(([, path]) => path)).toHaveLength(9);
  });

  it.each(SPEC_OPERATIONS)("describes %s %s", async (method, path) => {
    const document = await openApiDocument();
    expect(document.paths[path]?.[method]).toBeDefined();
  });
});
