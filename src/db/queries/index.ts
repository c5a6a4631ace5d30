/** Read queries of the public API: each answers one endpoint in one database round trip. */
export { listBrokers } from "./brokers";
export { type Aggregate, findAggregate, findAnalytics, findCustomer, findPortfolio, findStats } from "./customer";
export { type HistoryOwner, type HistoryPage, findHistory } from "./history";
export { type CustomerPage, type PerformanceRead, type Received, RECEIVED_SHOWN, findCustomerPage } from "./customer-page";
export type * from "./types";
export { type CorporateActionList, findCorporateActions } from "./corporate-actions";
export { type PerformanceRow, findPerformance, performanceOf, performanceQuery } from "./performance";
