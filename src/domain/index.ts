export { computeMetrics } from "./metrics";
export { type HoldingPartial, type PartialDeal, type PartialSum, PARTIAL_FORMAT, holdingPartial, mergePartials } from "./partial";
export { type DealSink, type ParsedTrade, matchHolding, parseTrade } from "./fifo";
export type { Analytics, AnalyticsSummary, CustomerMetrics, Deal, Stats, TradeInput } from "./types";
