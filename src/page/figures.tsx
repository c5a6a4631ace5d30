/**
 * The page's figure cards: what the portfolio is worth at the latest closes, and the realized
 * profit and loss summary.
 */
import type { Aggregate } from "../db/queries";
import { Figure, Money, Section } from "./kit";
import { useView } from "./view";

/** What the holdings are worth at the latest closes; nothing when there are no holdings. */
export function Valuation(props: { aggregate: Aggregate }) {
  const { t, f } = useView();
  const { valuation } = props.aggregate.stats;
  if (valuation.priced_holdings + valuation.unpriced_holdings === 0) return null;
  return (
    <Section id="valuation" title={t.valuation}>
      {valuation.as_of === null ? <p>{t.noPrices}</p> : null}
      <dl class="cards">
        <Figure name="market_value" term={t.marketValue}>
          <Money value={valuation.market_value} />
          {valuation.as_of === null ? null : (
            <small>
              {t.asOf} <time datetime={valuation.as_of}>{f.date(valuation.as_of)}</time>
            </small>
          )}
        </Figure>
        <Figure name="unrealized_pnl" term={t.unrealizedPnl}>
          <Money value={valuation.unrealized_pnl} signed />
        </Figure>
        <Figure name="priced_cost" term={t.pricedCost}>
          <Money value={valuation.priced_cost} />
          {valuation.unpriced_holdings > 0 ? <small>{t.unpricedNote(f.count(valuation.unpriced_holdings))}</small> : null}
        </Figure>
      </dl>
    </Section>
  );
}

export function Summary(props: { aggregate: Aggregate }) {
  const { t, f } = useView();
  const s = props.aggregate.analytics.summary;
  return (
    <Section id="summary" title={t.summary}>
      <dl class="cards">
        <Figure name="total_realized_pnl" term={t.realizedPnl}>
          <Money value={s.total_realized_pnl} signed />
        </Figure>
        <Figure name="win_rate" term={t.winRate}>
          <data value={String(s.win_rate)}>{f.percent(s.win_rate)}</data>
          <small>{t.deals(f.count(s.win_deals), f.count(s.loss_deals), f.count(s.total_deals))}</small>
        </Figure>
        <Figure name="profit_factor" term={t.profitFactor}>
          {s.profit_factor === null ? (
            <data value="">{t.noLosses}</data>
          ) : (
            <data value={s.profit_factor.text}>{f.ratio(s.profit_factor)}</data>
          )}
        </Figure>
        <Figure name="avg_win_pnl" term={t.avgWin}>
          <Money value={s.avg_win_pnl} signed />
        </Figure>
        <Figure name="avg_loss_pnl" term={t.avgLoss}>
          <Money value={s.avg_loss_pnl} signed />
        </Figure>
        <Figure name="avg_holding_days" term={t.avgHoldingDays}>
          <data value={`${s.avg_holding_days_win} ${s.avg_holding_days_loss}`}>
            {t.holdingDaysValue(f.days(s.avg_holding_days_win), f.days(s.avg_holding_days_loss))}
          </data>
        </Figure>
        <Figure name="total_fee_tax" term={t.feesAndTax}>
          <Money value={s.total_fee_tax} />
        </Figure>
      </dl>
    </Section>
  );
}
