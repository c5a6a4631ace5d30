export { computeMetrics } from "./metrics";
export { type ExactDeal, type FifoResult, type ParsedTrade, matchFifo, parseTrade } from "./fifo";
export type { Analytics, AnalyticsSummary, CustomerMetrics, Deal, Stats, TradeInput } from "./types";
