import { OpenAPIHono, createRoute } from "@hono/zod-openapi";
import { cached, forBrokers } from "../cache";
import type { AppEnv } from "../context";
import { listBrokers } from "../db/queries";
import { BrokersResponse, DATABASE_ERRORS, cachedResponses, errorResponses } from "../schemas";

const route = createRoute({
  method: "get",
  operationId: "listBrokers",
  path: "/brokers",
  tags: ["Brokers"],
  summary: "Supported brokers",
  description: "Every securities company the service knows, by code.",
  responses: {
    ...cachedResponses("The brokers", BrokersResponse),
    ...errorResponses(...DATABASE_ERRORS),
  },
});

export const brokers = new OpenAPIHono<AppEnv>().openapi(
  route,
  cached(forBrokers)(async (c) => c.json({ success: true, data: await listBrokers(c.get("db")) }, 200)),
);
