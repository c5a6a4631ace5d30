/**
 * The OpenAPI document, checked by a real OpenAPI validator, and what a consumer reads from it:
 * operation ids, tags, the admin security scheme, every status with its headers, servers.
 * Validators compile JSON Schema to code, which workerd forbids, so this suite runs in Node.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "../../src/errors";
import { BRAKES } from "../../src/brakes";
import { BY_SLUG, ENDPOINTS } from "../support/endpoints";
import { openApiDocument, operations } from "./document";

/** Every operation, as the endpoint registry the suites iterate lists it. */
const OPERATIONS = ENDPOINTS.map((e) => [e.method, e.path, e.operationId] as const);

const LOOKUPS = BY_SLUG.map((e) => e.path);

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

  it("names every operation with a camelCase verb and a declared tag, and has no other operation", async () => {
    const document = await openApiDocument();
    const found = operations(document).map(([method, path, op]) => [method, path, op.operationId]);
    expect(found.sort()).toEqual(OPERATIONS.map((o) => [...o]).sort());
    const declared = new Set(((document as unknown as { tags: Array<{ name: string }> }).tags ?? []).map((t) => t.name));
    for (const [method, path, op] of operations(document)) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^(get|list|run)[A-Z][A-Za-z]+$/);
      expect(op.tags?.length, `${method} ${path}`).toBe(1);
      expect(declared.has(op.tags![0]!), `${method} ${path}`).toBe(true);
    }
  });

  it("says where it is served and under what licence, with no placeholder contact", async () => {
    const document = await openApiDocument("https://investments.example.org");
    expect(document.servers).toEqual([
      { url: "/", description: "The origin this document was fetched from", "x-internal": false },
    ]);
    expect(document.info.contact).toBeUndefined();
    expect(document.info.license).toEqual({ name: "Proprietary" });
  });

  it("names PUBLIC_ORIGIN as its server when it is https, and never the request's Host", async () => {
    const configured = await openApiDocument("http://evil.example", { PUBLIC_ORIGIN: "https://api.example.com/" });
    expect(configured.servers).toEqual([
      { url: "https://api.example.com", description: "The API's public origin", "x-internal": false },
    ]);
    for (const origin of ["http://evil.example", "https://evil.example:8443"]) {
      expect(
        (await openApiDocument(origin)).servers?.map((s) => s.url),
        origin,
      ).toEqual(["/"]);
    }
    // A plain-http origin (a local setting) is not what a consumer should be sent to.
    const plain = await openApiDocument("http://evil.example", { PUBLIC_ORIGIN: "http://localhost:8787" });
    expect(plain.servers?.map((s) => s.url)).toEqual(["/"]);
  });

  it("names no schema after a built-in type that generated clients would hide", async () => {
    const document = await openApiDocument();
    const names = Object.keys(document.components?.schemas ?? {});
    expect(names).toContain("ErrorResponse");
    const builtIns = ["Error", "Date", "Object", "Array", "String", "Number", "Boolean", "Map", "Set", "Record", "Response"];
    expect(names.filter((name) => builtIns.includes(name))).toEqual([]);
  });

  it("asks for X-Admin-Key through an apiKey security scheme on the admin routes, and only there", async () => {
    const document = await openApiDocument();
    expect(document.components?.securitySchemes).toEqual({
      adminKey: { type: "apiKey", in: "header", name: "X-Admin-Key", description: expect.any(String) },
    });
    for (const [method, path, op] of operations(document)) {
      const admin = op.tags?.[0] === "Admin";
      expect(op.security, `${method} ${path}`).toEqual(admin ? [{ adminKey: [] }] : undefined);
      expect(op.parameters?.some((p) => p.in === "header") ?? false, `${method} ${path}`).toBe(false);
      if (admin) expect(Object.keys(op.responses), `${method} ${path}`).toEqual(expect.arrayContaining(["401", "429"]));
    }
    expect(document.paths["/api/sync"]!.post!.tags).toEqual(["Admin"]);
  });

  it("lists every status each route answers, 304 and 429 only where they happen", async () => {
    const document = await openApiDocument();
    const statuses = Object.fromEntries(
      operations(document).map(([method, path, op]) => [`${method} ${path}`, Object.keys(op.responses)]),
    );
    const lookup = ["200", "304", "404", "429", "500", "503"];
    const history = ["200", "304", "400", "404", "429", "500", "503"];
    expect(statuses).toEqual({
      "get /api/customers/{slug}": lookup,
      "get /api/portfolio/{slug}": lookup,
      "get /api/transactions/{slug}": history,
      "get /api/transactions/{slug}/{accountId}": history,
      "get /api/stats/{slug}": lookup,
      "get /api/analytics/{slug}": lookup,
      "get /api/aggregate/{slug}": lookup,
      "get /api/corporate-actions/{slug}": history,
      "get /api/performance/{slug}": ["200", "304", "400", "404", "429", "500", "503"],
      "get /api/brokers": ["200", "304", "500", "503"],
      "post /api/sync": ["200", "400", "401", "409", "429", "500", "502", "503"],
      "get /api/sync/status": ["200", "401", "429", "500", "503"],
      "get /api/health": ["200", "500", "503"],
      "get /api/health/live": ["200", "500", "503"],
      "get /api/health/db": ["200", "500", "503"],
      "get /api/openapi.json": ["200", "500"],
      "get /api/docs": ["200", "500"],
    });
  });

  it("documents the headers: X-Request-Id everywhere, the cache's validators on cached reads, Retry-After on 409 and 429, RateLimit-Policy on every braked route", async () => {
    const document = await openApiDocument();
    const cached = [...LOOKUPS, "/api/brokers"];
    const policies: Record<string, string> = {};
    for (const [method, path, op] of operations(document)) {
      const brake = LOOKUPS.includes(path) ? "lookup" : op.tags?.[0] === "Admin" ? "admin_key" : null;
      for (const [status, response] of Object.entries(op.responses)) {
        const where = `${method} ${path} ${status}`;
        const headers = Object.keys(response.headers ?? {});
        const expected = ["X-Request-Id"];
        if (cached.includes(path) && (status === "200" || status === "304"))
          expected.push("ETag", "Cache-Control", "X-Cache", "Age");
        if (status === "429" || status === "409") expected.push("Retry-After");
        if (brake) expected.push("RateLimit-Policy");
        expect(headers.sort(), where).toEqual(expected.sort());
        expect(response.headers?.["X-Request-Id"]?.required, where).toBe(true);
        if (status === "429") expect(response.headers?.["Retry-After"]?.required, where).toBe(true);
        if (brake) {
          const policy = response.headers?.["RateLimit-Policy"] as { required?: boolean; schema: { example: string } };
          expect(policy.required, where).toBe(true);
          policies[brake] = policy.schema.example;
        }
      }
    }
    expect(policies).toEqual({ lookup: BRAKES.lookup.policy, admin_key: BRAKES.admin_key.policy });
  });

  it("gives every error a code from one enum, and each status the details it sends", async () => {
    const document = await openApiDocument();
    const schemas = document.components!.schemas!;
    expect(schemas.ErrorCode).toEqual(expect.objectContaining({ type: "string", enum: [...ERROR_CODES] }));
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    // The 409 says who holds the lease, not a list of issues (what generated clients typed it as).
    expect(schemas.SyncRunningResponse.properties.details).toEqual(
      expect.objectContaining({
        type: "object",
        properties: {
          reason: expect.objectContaining({ type: "string" }),
          retry_after_seconds: expect.objectContaining({ type: "integer" }),
        },
        required: ["reason", "retry_after_seconds"],
      }),
    );
    expect(schemas.ValidationErrorResponse.properties.details).toEqual(
      expect.objectContaining({ type: "array", items: ref("ValidationIssue") }),
    );
    expect(schemas.ServerErrorResponse.required).toEqual(["success", "error", "code", "request_id"]);
    const bodyOf = { "400": "ValidationErrorResponse", "409": "SyncRunningResponse" } as Record<string, string>;
    for (const [method, path, op] of operations(document)) {
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const where = `${method} ${path} ${status}`;
        const content = (response as { content: Record<string, { schema: unknown; example?: { code?: string } }> }).content[
          "application/json"
        ]!;
        if (path === "/api/health" && status === "503") continue; // the health body, with its data
        if (path === "/api/health/live" && status === "503") continue; // the binding names, checked below
        const expected = bodyOf[status] ?? (Number(status) >= 500 ? "ServerErrorResponse" : "ErrorResponse");
        expect(content.schema, where).toEqual(ref(expected));
        expect(ERROR_CODES, where).toContain(content.example?.code);
      }
    }
    const lookup429 = document.paths["/api/customers/{slug}"]!.get!.responses["429"] as {
      content: Record<string, { example: unknown }>;
    };
    expect(lookup429.content["application/json"]!.example).toEqual({
      success: false,
      error: "Too Many Requests",
      code: "rate_limited_lookup",
    });
    const admin429 = document.paths["/api/sync"]!.post!.responses["429"] as { content: Record<string, { example: unknown }> };
    expect(admin429.content["application/json"]!.example).toEqual({
      success: false,
      error: "Too Many Requests",
      code: "rate_limited_admin_key",
    });
    expect(schemas.MisconfiguredResponse.properties.details.properties.missing_bindings.items.enum).toEqual([
      "NOT_FOUND_LIMITER",
      "ADMIN_KEY_LIMITER",
      "SYNC_QUEUE",
    ]);
  });

  it("writes every rule the list validators enforce into the parameters' descriptions", async () => {
    const document = await openApiDocument();
    for (const path of ["/api/transactions/{slug}", "/api/transactions/{slug}/{accountId}", "/api/corporate-actions/{slug}"]) {
      const parameters = document.paths[path]!.get!.parameters as unknown as Array<{
        name: string;
        schema: { description: string };
      }>;
      const description = (name: string) => parameters.find((p) => p.name === name)!.schema.description;
      expect(description("page"), path).toContain("an integer from 1 to 1000000000");
      expect(description("per_page"), path).toContain("an integer from 1 to 100;");
      expect(description("start_date"), path).toContain("not after end_date");
      expect(description("end_date"), path).toContain("not before start_date");
    }
  });

  it("describes the dates the history takes: format date, the range in words and in a pattern", async () => {
    const document = await openApiDocument();
    for (const path of ["/api/transactions/{slug}", "/api/transactions/{slug}/{accountId}"]) {
      const parameters = document.paths[path]!.get!.parameters as unknown as Array<{
        name: string;
        schema: { type: string; format: string; pattern: string; description: string };
      }>;
      for (const name of ["start_date", "end_date"]) {
        const schema = parameters.find((p) => p.name === name)!.schema;
        expect({ type: schema.type, format: schema.format }, `${path} ${name}`).toEqual({ type: "string", format: "date" });
        expect(schema.description, `${path} ${name}`).toContain("from 0001-01-01 to 9999-12-31");
        const pattern = new RegExp(schema.pattern);
        for (const date of ["0001-01-01", "0099-12-31", "2024-02-29", "9999-12-31"]) expect(pattern.test(date), date).toBe(true);
        for (const date of ["0000-01-01", "10000-01-01", "2024-13-01", "2024-01-32", "2024-1-05"])
          expect(pattern.test(date), date).toBe(false);
      }
    }
  });

  it("gives each route's 400 an example of its own parameters", async () => {
    const document = await openApiDocument();
    const example = (path: string, method: string) =>
      (document.paths[path]![method]!.responses["400"] as { content: { "application/json": { example: unknown } } }).content[
        "application/json"
      ].example;
    expect(example("/api/sync", "post")).toEqual({
      success: false,
      error: "Bad Request",
      code: "bad_request",
      details: [{ path: "mode", message: "must be delta or full" }],
    });
    expect(example("/api/transactions/{slug}", "get")).toEqual({
      success: false,
      error: "Bad Request",
      code: "bad_request",
      details: [{ path: "per_page", message: "must be an integer from 1 to 100" }],
    });
  });
});
