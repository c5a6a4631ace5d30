/**
 * The body of a customer's page: its sections in the order a person reads them, each in its own
 * file and each fed from the aggregate (src/db/queries/customer-page.ts), what the accounts
 * received from its own lists of corporate actions, today's change and the chosen range from
 * their own performance reads, the history from its own page of trades. Today's change comes
 * first, as a broker app opens on it.
 */
import type { Aggregate, PerformanceRead, Received as ReceivedLists } from "../db/queries";
import { Accounts } from "./accounts";
import { TopDeals } from "./deals";
import { Returns, Summary, Valuation } from "./figures";
import { History, type HistoryState } from "./history";
import { Holdings } from "./holdings";
import { Charts } from "./monthly";
import { type ChosenRange, PerformanceSection, Today, usable } from "./performance";
import { Received } from "./received";

export function PageBody(props: {
  aggregate: Aggregate;
  received: ReceivedLists;
  today: PerformanceRead;
  chosen: ChosenRange;
  history: HistoryState;
}) {
  const { aggregate, chosen } = props;
  // The whole history's gain, when it is the range shown: the total return says why they differ.
  const max = chosen.kind === "range" && chosen.range === "max" && usable(chosen.read) ? chosen.read : undefined;
  return (
    <>
      <Today read={props.today} />
      <Accounts aggregate={aggregate} />
      <PerformanceSection chosen={props.chosen} />
      <Valuation aggregate={aggregate} />
      <Returns aggregate={aggregate} max={max} />
      <Summary aggregate={aggregate} />
      <Charts aggregate={aggregate} />
      <Holdings aggregate={aggregate} />
      <TopDeals aggregate={aggregate} />
      <Received received={props.received} />
      <History aggregate={aggregate} state={props.history} />
    </>
  );
}
