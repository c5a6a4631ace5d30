/** The edge cache: declared per route (serve.ts), keyed by scope (keys.ts), dropped after a sync (invalidate.ts). */
export {
  BROKERS_SCOPE,
  CUSTOMERS_SCOPE,
  PRICES_SCOPE,
  cacheTag,
  customerScope,
  entryKey,
  isCustomerScope,
  resourceKey,
  versionKey,
} from "./keys";
export {
  cached,
  forBrokers,
  forCustomer,
  forValuedCustomer,
  NOT_STORED,
  type Resource,
  type Scope,
  type Until,
  STALE_IF_ERROR_SECONDS,
} from "./serve";
export { CACHE_CALLS_PER_INVALIDATION, invalidate, type InvalidationResult } from "./invalidate";
