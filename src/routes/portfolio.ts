import { findPortfolio } from "../db/queries";
import { PortfolioResponse } from "../schemas";
import { slugRoute } from "./slug-route";

export const portfolio = slugRoute({
  operationId: "getPortfolio",
  path: "/portfolio/{slug}",
  tag: "Portfolio",
  summary: "Current holdings",
  description: "Holdings in all of the customer's accounts, by stock code, then account.",
  answer: "The holdings; empty when the customer holds nothing",
  response: PortfolioResponse,
  find: findPortfolio,
});
