/** The edge cache: declared per route (serve.ts), keyed by scope (keys.ts), dropped after a sync (invalidate.ts). */
export { BROKERS_SCOPE, PRICES_SCOPE, cacheTag, customerScope, entryKey, resourceKey, versionKey } from "./keys";
export {
  cached,
  forBrokers,
  forCustomer,
  forValuedCustomer,
  NOT_STORED,
  type Resource,
  type Scope,
  STALE_IF_ERROR_SECONDS,
} from "./serve";
export { invalidate, type InvalidationResult } from "./invalidate";
