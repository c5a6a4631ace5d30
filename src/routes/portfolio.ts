import { findPortfolio } from "../db/queries";
import { PortfolioResponse } from "../schemas";
import { slugRoute } from "./slug-route";
import { forValuedCustomer } from "../cache";

export const portfolio = slugRoute({
  operationId: "getPortfolio",
  path: "/portfolio/{slug}",
  tag: "Portfolio",
  summary: "Current holdings",
  description:
    "Holdings in all of the customer's accounts, by stock code, then account, each valued at its stock's latest close (null fields when the stock has none).",
  answer: "The holdings; empty when the customer holds nothing",
  response: PortfolioResponse,
  // Carries a valuation: a new close makes it stale, as a change to the customer does.
  scope: forValuedCustomer,
  find: findPortfolio,
});
