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

describe("Spectral, spectral:oas", () => {
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
});
