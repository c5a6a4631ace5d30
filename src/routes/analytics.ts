import { findAnalytics } from "../db/queries";
import { AnalyticsResponse } from "../schemas";
import { slugRoute } from "./slug-route";

export const analytics = slugRoute({
  operationId: "getAnalytics",
  path: "/analytics/{slug}",
  tag: "Metrics",
  summary: "Trading-style analytics",
  description: "Win rate, average win and loss, profit factor, holding periods and the top deals, as of the last sync.",
  answer: "The analytics",
  response: AnalyticsResponse,
  find: findAnalytics,
});
