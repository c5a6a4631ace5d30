export { computeMetrics } from "./metrics";
export { type DividendInput, type DividendSums, NO_DIVIDENDS, sumDividends } from "./dividends";
export {
  type HoldingPartial,
  type PartialDeal,
  type PartialSum,
  METRICS_RULES,
  PARTIAL_FORMAT,
  holdingPartial,
} from "./partial";
export {
  type Continued,
  type LotsPosition,
  type PlacedLot,
  type ResumePoint,
  continuePartial,
  lotsReached,
  soldShares,
} from "./continuation";
export { type MergeRule, PARTIAL_MERGE, combinePartials, mergePartials } from "./merge";
export { type DealSink, matchHolding } from "./fifo";
export type { OpenLot, OpenLots } from "./lots";
export { type ParsedTrade, parseTrade } from "./parse";
export type { Analytics, AnalyticsSummary, CreditInput, CustomerMetrics, Deal, Stats, TradeInput } from "./types";
export { RETURN_PART_PLACES, decideReturnPart, returnPartExact, servedTotalReturn } from "./total-return";
export { type CashFlow, type Mwr, type MwrStatus, annualizedTwr, moneyWeightedReturn } from "./returns";
