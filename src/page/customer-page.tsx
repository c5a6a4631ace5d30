/**
 * The body of a customer's page: its sections in the order a person reads them, each in its own
 * file and each fed from the aggregate (src/db/queries/customer-page.ts), the history from its
 * own page of trades.
 */
import type { Aggregate } from "../db/queries";
import { Accounts } from "./accounts";
import { TopDeals } from "./deals";
import { Returns, Summary, Valuation } from "./figures";
import { History, type HistoryState } from "./history";
import { Holdings } from "./holdings";
import { Charts } from "./monthly";

export function CustomerPage(props: { aggregate: Aggregate; history: HistoryState }) {
  const { aggregate } = props;
  return (
    <>
      <Accounts aggregate={aggregate} />
      <Valuation aggregate={aggregate} />
      <Returns aggregate={aggregate} />
      <Summary aggregate={aggregate} />
      <Charts aggregate={aggregate} />
      <Holdings aggregate={aggregate} />
      <TopDeals aggregate={aggregate} />
      {/*
        The place for what the accounts received (each cash dividend and share credit, from
        GET /api/corporate-actions/:slug, apart from the trade history): a section of its own
        in its own file, here, fed by a third statement in the page's batch
        (src/db/queries/customer-page.ts).
      */}
      <History aggregate={aggregate} state={props.history} />
    </>
  );
}
