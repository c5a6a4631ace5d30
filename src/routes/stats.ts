import { findStats } from "../db/queries";
import { StatsResponse } from "../schemas";
import { slugRoute } from "./slug-route";

export const stats = slugRoute({
  operationId: "getStats",
  path: "/stats/{slug}",
  tag: "Metrics",
  summary: "Realized P&L statistics",
  description: "Totals over all of the customer's trades and the P&L realized by FIFO matching, as of the last sync.",
  answer: "The statistics",
  response: StatsResponse,
  find: findStats,
});
