import { OpenAPIHono, createRoute } from "@hono/zod-openapi";
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

export const brokers = new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
  return c.json({ success: true, data: await listBrokers(c.get("db")) }, 200);
});
