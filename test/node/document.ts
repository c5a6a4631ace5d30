/** The served OpenAPI document, as outside tools fetch it, from the app itself (no database is touched). */
import { expect } from "vitest";
import { app } from "../../src/app";

// Never contacted: the document is generated without touching a database. The bindings are
// stand-ins (Node has none), there only because the Worker refuses to serve without them.
const limiter = { limit: async () => ({ success: true }) };
export const documentEnv = {
  DATABASE_URL: "postgres://x@127.0.0.1:1/investments",
  NOT_FOUND_LIMITER: limiter,
  ADMIN_KEY_LIMITER: limiter,
  SYNC_QUEUE: { send: async () => undefined, sendBatch: async () => undefined },
};

export type Operation = {
  operationId?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ name: string; in: string }>;
  responses: Record<string, { headers?: Record<string, { required?: boolean }> }>;
};

export type OpenApiDocument = {
  openapi: string;
  info: { version: string; contact?: unknown; license?: unknown };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, any>; securitySchemes?: Record<string, unknown> };
};

export async function openApiDocument(
  origin = "https://api.test",
  settings: Record<string, string> = {},
): Promise<OpenApiDocument> {
  const res = await app.request(`${origin}/api/openapi.json`, {}, { ...documentEnv, ...settings });
  expect(res.status).toBe(200);
  return (await res.json()) as OpenApiDocument;
}

export function operations(document: OpenApiDocument): Array<[method: string, path: string, operation: Operation]> {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => [method, path, operation] as [string, string, Operation]),
  );
}
