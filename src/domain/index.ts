export { computeMetrics } from "./metrics";
export { type DividendInput, type DividendSums, NO_DIVIDENDS, sumDividends } from "./dividends";
export {
  type Continued,
  type HoldingChange,
  type HoldingPartial,
  type LotsPosition,
  type MergeRule,
  type PartialDeal,
  type PartialSum,
  type PlacedLot,
  type ResumePoint,
  METRICS_RULES,
  PARTIAL_FORMAT,
  PARTIAL_MERGE,
  adjustMerge,
  combinePartials,
  continuePartial,
  holdingPartial,
  lotsReached,
  mergePartials,
  soldShares,
} from "./partial";
export { type DealSink, type OpenLot, type OpenLots, type ParsedTrade, matchHolding, parseTrade } from "./fifo";
export type { Analytics, AnalyticsSummary, CreditInput, CustomerMetrics, Deal, Stats, TradeInput } from "./types";
export { RETURN_PART_PLACES, decideReturnPart, returnPartExact, servedTotalReturn } from "./total-return";
