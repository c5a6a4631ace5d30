import { findStats } from "../db/queries";
import { StatsResponse } from "../schemas";
import { slugRoute } from "./slug-route";
import { forValuedCustomer } from "../cache";

export const stats = slugRoute({
  operationId: "getStats",
  path: "/stats/{slug}",
  tag: "Metrics",
  summary: "Realized P&L statistics",
  description:
    "Totals over all of the customer's trades and the P&L realized by FIFO matching, as of the last sync, and what the holdings are worth at their stocks' latest closes (`valuation`).",
  answer: "The statistics",
  response: StatsResponse,
  // Carries a valuation: a new close makes it stale, as a change to the customer does.
  scope: forValuedCustomer,
  find: findStats,
});
