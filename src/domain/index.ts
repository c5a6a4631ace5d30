export { computeMetrics } from "./metrics";
export {
  type HoldingPartial,
  type MergeRule,
  type PartialDeal,
  type PartialSum,
  type ResumePoint,
  PARTIAL_FORMAT,
  PARTIAL_MERGE,
  continuePartial,
  holdingPartial,
  mergePartials,
} from "./partial";
export { type DealSink, type OpenLots, type ParsedTrade, matchHolding, parseTrade } from "./fifo";
export type { Analytics, AnalyticsSummary, CustomerMetrics, Deal, Stats, TradeInput } from "./types";
