/**
 * The page's figure cards: what the portfolio is worth at the latest closes, what it earned in
 * all, and the realized profit and loss summary.
 */
import type { Aggregate } from "../db/queries";
import type { Performance } from "../schemas";
import { Count, Figure, Money, MoneyFigure, Section } from "./kit";
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
        <MoneyFigure name="market_value" term={t.marketValue} value={valuation.market_value}>
          {valuation.as_of === null ? null : (
            <small>
              {t.asOf} <time datetime={valuation.as_of}>{f.date(valuation.as_of)}</time>
            </small>
          )}
        </MoneyFigure>
        <MoneyFigure name="unrealized_pnl" term={t.unrealizedPnl} value={valuation.unrealized_pnl} signed />
        <MoneyFigure name="priced_cost" term={t.pricedCost} value={valuation.priced_cost}>
          {valuation.unpriced_holdings > 0 ? <small>{t.unpricedNote(f.count(valuation.unpriced_holdings))}</small> : null}
        </MoneyFigure>
      </dl>
    </Section>
  );
}

/**
 * What the portfolio earned, on one cost basis: `total_return` is the average-cost realized P&L,
 * the unrealized P&L at the latest closes (whose cost is the broker's average cost) and the net
 * cash dividends (src/schemas/resources.ts). Beside it, the two realized figures, which differ
 * whenever a stock was bought at several prices, and the dividends. Nothing when the customer
 * has no trade, holding or dividend.
 */
/**
 * Why the whole history's gain (`pnl` over `max`, from the trades) and `total_return` (from the
 * holdings the back office reports) differ, when they do by a đồng or more: one sentence with
 * the difference derived from the two figures as served, and the causes the API's figures show
 * (docs/page.md): holdings that the ledger does not explain (`holdings_mismatch`), shares sold
 * that the history never bought (`unmatched_sell_quantity`), or else the holdings' cost.
 */
function ReturnDifference(props: { max: Performance; aggregate: Aggregate }) {
  const { t, f } = useView();
  const { max, aggregate } = props;
  const difference = aggregate.stats.total_return.minus(max.pnl);
  if (difference.rounded(0).sign() === 0) return null;
  const unmatched = aggregate.analytics.summary.unmatched_sell_quantity;
  const reasons = [
    ...(max.holdings_mismatch > 0 ? [t.mismatchReason(max.holdings_mismatch, f.count(max.holdings_mismatch))] : []),
    ...(unmatched > 0 ? [t.unmatchedReason(f.count(unmatched))] : []),
  ];
  const magnitude = difference.sign() < 0 ? difference.negated() : difference;
  return (
    <small data-note="return-difference" data-value={difference.text}>
      {t.returnDiffers(difference.sign() > 0, f.money(magnitude), f.money(max.pnl), reasons.length ? reasons : [t.costReason])}
    </small>
  );
}

export function Returns(props: { aggregate: Aggregate; max?: Performance }) {
  const { t } = useView();
  const { stats } = props.aggregate;
  const { dividends, valuation } = stats;
  if (stats.transaction_count + dividends.count + valuation.priced_holdings + valuation.unpriced_holdings === 0) return null;
  return (
    <Section id="returns" title={t.returns}>
      <dl class="cards">
        <MoneyFigure name="total_return" term={t.totalReturn} value={stats.total_return} signed>
          <small>{t.totalReturnParts}</small>
          {props.max ? <ReturnDifference max={props.max} aggregate={props.aggregate} /> : null}
        </MoneyFigure>
        <MoneyFigure name="realized_pnl" term={t.realizedFifo} value={stats.realized_pnl} signed />
        <MoneyFigure
          name="realized_pnl_average_cost"
          term={t.realizedAverageCost}
          value={stats.realized_pnl_average_cost}
          signed
        />
        <MoneyFigure name="dividends" term={t.dividendsNet} value={dividends.net}>
          {dividends.count === 0 ? (
            <small>{t.noDividends}</small>
          ) : (
            <small>
              <span data-part="gross">
                {t.dividendsGross}: <Money value={dividends.gross} />
              </span>{" "}
              ·{" "}
              <span data-part="tax">
                {t.dividendsTax}: <Money value={dividends.tax} />
              </span>{" "}
              ·{" "}
              <span data-part="count">
                {t.dividendsCount}: <Count value={dividends.count} />
              </span>
            </small>
          )}
        </MoneyFigure>
      </dl>
      <p>{t.realizedDiffer}</p>
    </Section>
  );
}

export function Summary(props: { aggregate: Aggregate }) {
  const { t, f } = useView();
  const s = props.aggregate.analytics.summary;
  return (
    <Section id="summary" title={t.summary}>
      <dl class="cards">
        <MoneyFigure name="total_realized_pnl" term={t.realizedPnl} value={s.total_realized_pnl} signed />
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
        <MoneyFigure name="avg_win_pnl" term={t.avgWin} value={s.avg_win_pnl} signed />
        <MoneyFigure name="avg_loss_pnl" term={t.avgLoss} value={s.avg_loss_pnl} signed />
        <Figure name="avg_holding_days" term={t.avgHoldingDays}>
          {/* Words that may wrap, unlike a figure (data:not(.text) keeps to one line). */}
          <data value={`${s.avg_holding_days_win} ${s.avg_holding_days_loss}`} class="text">
            {t.holdingDaysValue(f.days(s.avg_holding_days_win), f.days(s.avg_holding_days_loss))}
          </data>
        </Figure>
        <MoneyFigure name="total_fee_tax" term={t.feesAndTax} value={s.total_fee_tax} />
      </dl>
    </Section>
  );
}
