import { findAggregate } from "../db/queries";
import { AggregateResponse } from "../schemas";
import { slugRoute } from "./slug-route";

export const aggregate = slugRoute({
  operationId: "getAggregate",
  path: "/aggregate/{slug}",
  tag: "Customers",
  summary: "Profile, holdings, stats and analytics in one call",
  description: "What a page about one customer needs, in one request (and one database round trip).",
  answer: "The customer, portfolio, stats and analytics",
  response: AggregateResponse,
  find: findAggregate,
});
