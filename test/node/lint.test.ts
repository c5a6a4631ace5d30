/**
 * The document as linters and generators see it: Spectral, with the ruleset of
 * ./spectral-ruleset.ts, reports nothing, at any severity. (Spectral compiles JSON Schema to
 * code: Node only.)
 */
import { Spectral } from "@stoplight/spectral-core";
import { describe, expect, it } from "vitest";
import { type OpenApiDocument, openApiDocument } from "./document";
import { ruleset } from "./spectral-ruleset";

async function lint(document: OpenApiDocument) {
  const spectral = new Spectral();
  spectral.setRuleset(ruleset as never);
  const results = await spectral.run(JSON.stringify(document, null, 2));
  return results.map((r) => `${r.code} at ${r.path.join(".")}: ${r.message}`);
}

describe("Spectral, spectral:oas and the OWASP ruleset", () => {
  it("reports nothing on the served document", async () => {
    expect(await lint(await openApiDocument())).toEqual([]);
  }, 60_000);

  it("would report an operation without an operationId or tags, and a document without servers", async () => {
    const document = await openApiDocument();
    delete document.paths["/api/brokers"]!.get!.operationId;
    delete document.paths["/api/brokers"]!.get!.tags;
    delete document.servers;
    const codes = (await lint(document)).map((line) => line.split(" ")[0]);
    expect(codes.sort()).toEqual(["oas3-api-servers", "operation-operationId", "operation-tags"]);
  }, 60_000);

  it("would report a query string without maxLength, an integer without format, a server without its audience", async () => {
    const document = await openApiDocument();
    const history = document.paths["/api/transactions/{slug}"]!.get!;
    const stockCode = history.parameters!.find((p) => p.name === "stock_code") as unknown as { schema: Record<string, unknown> };
    delete stockCode.schema.maxLength;
    delete document.components!.schemas!.Pagination.properties.total.format;
    delete (document.servers![0] as Record<string, unknown>)["x-internal"];
    const findings = await lint(document);
    const codes = new Set(findings.map((line) => line.split(" ")[0]));
    expect([...codes].sort()).toEqual([
      "owasp:api4:2023-integer-format",
      "owasp:api4:2023-string-limit",
      "owasp:api9:2023-inventory-access",
    ]);
    expect(findings.filter((line) => line.startsWith("owasp:api4:2023-string-limit"))).toEqual([
      expect.stringContaining("at paths./api/transactions/{slug}.get.parameters."),
    ]);
  }, 60_000);
});
