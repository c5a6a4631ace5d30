import { findAggregate } from "../db/queries";
import { AggregateResponse } from "../schemas";
import { slugRoute } from "./slug-route";
import { forValuedCustomer } from "../cache";

export const aggregate = slugRoute({
  operationId: "getAggregate",
  path: "/aggregate/{slug}",
  tag: "Customers",
  summary: "Profile, holdings, stats and analytics in one call",
  description: "What a page about one customer needs, in one request (and one database round trip).",
  answer: "The customer, portfolio, stats and analytics",
  response: AggregateResponse,
  // Carries a valuation: a new close makes it stale, as a change to the customer does.
  scope: forValuedCustomer,
  find: findAggregate,
});
