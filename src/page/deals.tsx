/** The five largest wins and the five largest losses, as the analytics list them. */
import type { Aggregate } from "../db/queries";
import { Count, DataTable, Day, Money, Section } from "./kit";
import { useView } from "./view";

type Deal = Aggregate["analytics"]["top_wins"][number];

function DealTable(props: { id: string; caption: string; empty: string; deals: Deal[] }) {
  const { t } = useView();
  if (props.deals.length === 0) {
    return (
      <div>
        <h3>{props.caption}</h3>
        <p>{props.empty}</p>
      </div>
    );
  }
  return (
    <DataTable
      label={props.caption}
      id={props.id}
      caption={props.caption}
      columns={[
        { head: t.stock, names: true, cell: (d) => d.stock_code },
        { head: t.sellDate, cell: (d) => <Day iso={d.sell_date} /> },
        { head: t.realizedPnl, num: true, cell: (d) => <Money value={d.realized_pnl} signed /> },
        { head: t.holdingDays, num: true, cell: (d) => <Count value={d.holding_days} /> },
        { head: t.quantitySold, num: true, cell: (d) => <Count value={d.quantity_sold} /> },
      ]}
      rows={props.deals}
    />
  );
}

export function TopDeals(props: { aggregate: Aggregate }) {
  const { t } = useView();
  const { top_wins, top_losses } = props.aggregate.analytics;
  return (
    <Section id="top-deals" title={t.topDeals}>
      <div class="deals">
        <DealTable id="top_wins" caption={t.topWins} empty={t.noWins} deals={top_wins} />
        <DealTable id="top_losses" caption={t.topLosses} empty={t.noLossesYet} deals={top_losses} />
      </div>
    </Section>
  );
}
