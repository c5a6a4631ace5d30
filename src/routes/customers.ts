import { findCustomer } from "../db/queries";
import { CustomerResponse } from "../schemas";
import { slugRoute } from "./slug-route";

export const customers = slugRoute({
  operationId: "getCustomer",
  path: "/customers/{slug}",
  tag: "Customers",
  summary: "Customer profile",
  description: "The customer with the staff member who looks after them and their linked accounts, each with its broker.",
  answer: "The customer profile",
  response: CustomerResponse,
  find: findCustomer,
});
