/**
 * The holdings: cost, the latest close and its date, market value, unrealized P&L, and each
 * holding's share of the portfolio by market value (by cost when it has no price, marked so).
 */
import type { Aggregate } from "../db/queries";
import { Decimal } from "../domain/decimal";
import type { Holding } from "../schemas";
import { Count, DataTable, Day, MaybeMoney, Money, Price, Section, accountName } from "./kit";
import { useView } from "./view";

/** A holding's share of the portfolio, as a bar beside its percentage. */
function AllocationBar(props: { share: number }) {
  const width = 60;
  return (
    <svg class="bar" width={width} height="10" viewBox={`0 0 ${width} 10`} aria-hidden="true" focusable="false">
      <rect class="track" width={width} height="10" rx="2" />
      <rect class="fill" width={(width * props.share).toFixed(1)} height="10" rx="2" />
    </svg>
  );
}

export function Holdings(props: { aggregate: Aggregate }) {
  const { t, f } = useView();
  const holdings = props.aggregate.portfolio;
  const { valuation } = props.aggregate.stats;
  // The exact sum of the costs; shares are only drawn and shown as rounded percentages.
  const totalCost = Decimal.sum(holdings.map((h) => h.total_cost));
  // Allocation by market value; an unpriced holding weighs its cost, and says so.
  const weight = (h: Holding) => h.market_value ?? h.total_cost;
  const totalWeight = Decimal.sum(holdings.map(weight));
  const share = (h: Holding) => weight(h).ratioTo(totalWeight);
  return (
    <Section id="holdings" title={t.holdings}>
      <DataTable
        label={t.holdings}
        empty={t.noHoldings}
        id="holdings"
        columns={[
          { head: t.stock, names: true, cell: (h) => h.stock_code },
          { head: t.account, cell: (h) => accountName(h.account) },
          { head: t.quantity, num: true, cell: (h) => <Count value={h.quantity} /> },
          { head: t.avgCost, num: true, cell: (h) => <Price value={h.avg_cost} /> },
          { head: t.totalCost, num: true, cell: (h) => <Money value={h.total_cost} /> },
          {
            head: t.marketPrice,
            num: true,
            cell: (h) =>
              h.market_price === null || h.price_date === null ? (
                <data value="">{t.noPrice}</data>
              ) : (
                <>
                  <Price value={h.market_price} />
                  <small>
                    <Day iso={h.price_date} />
                  </small>
                </>
              ),
          },
          { head: t.marketValue, num: true, cell: (h) => <MaybeMoney value={h.market_value} /> },
          { head: t.unrealizedPnl, num: true, cell: (h) => <MaybeMoney value={h.unrealized_pnl} signed /> },
          {
            head: t.allocation,
            num: true,
            cell: (h) => (
              <>
                {f.percent(share(h))}
                {h.market_value === null ? <small> ({t.byCost})</small> : null}
                <AllocationBar share={share(h)} />
              </>
            ),
          },
        ]}
        rows={holdings}
        rowAttributes={(h) => ({ "data-id": h.id })}
        foot={
          <tfoot>
            <tr>
              <th scope="row" colspan={4}>
                {t.total}
              </th>
              <td class="num" data-label={t.totalCost}>
                <Money value={totalCost} />
              </td>
              <td />
              <td class="num" data-label={t.marketValue}>
                <Money value={valuation.market_value} />
              </td>
              <td class="num" data-label={t.unrealizedPnl}>
                <Money value={valuation.unrealized_pnl} signed />
              </td>
              <td class="num" data-label={t.allocation}>
                {f.percent(totalWeight.sign() > 0 ? 1 : 0)}
              </td>
            </tr>
          </tfoot>
        }
      />
    </Section>
  );
}
