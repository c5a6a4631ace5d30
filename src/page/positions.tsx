/**
 * What moved the chosen range (docs/performance.md, "Per stock" and "The worst fall"): the
 * deepest fall of the time-weighted growth with its peak and low, as a card beside the range's
 * other figures, and each stock's gain, return and weight at the end in the API's order, each
 * code a link to its own trades (the history's stock_code filter, keeping the chosen range).
 */
import type { Decimal } from "../domain/decimal";
import type { Performance, PerformancePosition } from "../schemas";
import { DataTable, Day, Figure, Money, Rate } from "./kit";
import { pageHref } from "./query";
import { useView } from "./view";

/**
 * The worst fall as a loss (0.25 reads −25,00%, as the page prints every return), the API's
 * exact `max` in value; its peak and low under it, or that there was none.
 */
export function DrawdownFigure(props: { drawdown: Performance["drawdown"] }) {
  const { t, f } = useView();
  const { max, peak_date: peak, trough_date: trough } = props.drawdown;
  return (
    <Figure name="period_drawdown" term={t.drawdown}>
      <data value={max.text} class={max.sign() > 0 ? "loss" : undefined}>
        {f.rate(max.negated())}
      </data>
      {peak !== null && trough !== null ? (
        <small data-part="drawdown_dates">
          {t.drawdownPeak} <Day iso={peak} /> → {t.drawdownTrough} <Day iso={trough} />
        </small>
      ) : (
        <small>{t.noDrawdown}</small>
      )}
    </Figure>
  );
}

/** A share of the portfolio's value: its exact fraction in value, a percentage as the holdings print theirs; null a dash. */
function Weight(props: { value: Decimal | null }) {
  const { f } = useView();
  if (props.value === null) return <data value="">—</data>;
  return <data value={props.value.text}>{f.percent(props.value.toNumber())}</data>;
}

/** The link to a code's trades: the history filtered by it, the range kept, opened at the history. */
function TradesLink(props: { code: string }) {
  const { lang, slug, range } = useView();
  return <a href={`${pageHref(slug, lang, { stock_code: props.code }, range)}#history`}>{props.code}</a>;
}

/** Each stock's figures over the range, in the API's order (largest end value first). */
export function Positions(props: { positions: PerformancePosition[] }) {
  const { t } = useView();
  return (
    <div class="positions">
      <h3 id="positions-heading">{t.positions}</h3>
      {props.positions.length ? <p class="hint">{t.positionsHint}</p> : null}
      <DataTable
        label={t.positions}
        empty={t.noPositions}
        id="positions"
        columns={[
          { head: t.stock, names: true, cell: (p) => <TradesLink code={p.stock_code} /> },
          { head: t.positionPnl, num: true, cell: (p) => <Money value={p.pnl} signed /> },
          { head: t.positionTwr, num: true, cell: (p) => <Rate value={p.twr} /> },
          { head: t.weight, num: true, cell: (p) => <Weight value={p.weight} /> },
        ]}
        rows={props.positions}
        rowAttributes={(p) => ({ "data-id": p.stock_code })}
      />
    </div>
  );
}
