/**
 * The small parts every section of the page is built from. Figures are wrapped in <data value>
 * (amounts, counts) and <time datetime> (dates) holding the API's own value, so a machine reads
 * exactly what the API answered beside the text a person reads (test/browser compares them).
 */
import type { Child } from "hono/jsx";
import type { Decimal } from "../domain/decimal";
import type { Holding } from "../schemas";
import { useView } from "./view";

/** The class of a signed figure: gain, loss, or none for zero. */
export const tone = (value: Decimal) => (value.sign() > 0 ? "gain" : value.sign() < 0 ? "loss" : undefined);

/**
 * An amount: its exact text in value (as the API writes it), whole đồng in the text (Format.money).
 * A signed one is coloured by what the reader sees: an amount that rounds to 0 is no gain or loss.
 */
export function Money(props: { value: Decimal; signed?: boolean }) {
  const { f } = useView();
  return (
    <data value={props.value.text} class={props.signed ? tone(props.value.rounded(0)) : undefined}>
      {f.money(props.value)}
    </data>
  );
}

/** A return: the API's exact rate in value, a signed percentage with 2 decimals in the text; null a dash, and why. */
export function Rate(props: { value: Decimal | null; why?: string }) {
  const { f } = useView();
  if (props.value === null) {
    return (
      <>
        <data value="">—</data>
        {props.why ? <small>{props.why}</small> : null}
      </>
    );
  }
  return (
    <data value={props.value.text} class={tone(props.value)}>
      {f.rate(props.value)}
    </data>
  );
}

/** A per-share price (a close, an average cost, a trade's price): its exact text in value, as stored in the text. */
export function Price(props: { value: Decimal }) {
  const { f } = useView();
  return <data value={props.value.text}>{f.price(props.value)}</data>;
}

/** A money figure the API may leave null (an unpriced holding): "no price" then, with an empty value. */
export function MaybeMoney(props: { value: Decimal | null; signed?: boolean }) {
  const { t } = useView();
  if (props.value === null) return <data value="">{t.noPrice}</data>;
  return <Money value={props.value} signed={props.signed} />;
}

export function Count(props: { value: number }) {
  const { f } = useView();
  return <data value={String(props.value)}>{f.count(props.value)}</data>;
}

export function Day(props: { iso: string }) {
  const { f } = useView();
  return <time datetime={props.iso}>{f.date(props.iso)}</time>;
}

/** An account as the page names it: its broker's code and its number, on one line (never "005C89 / 9074"). */
export const accountName = (a: Holding["account"]) => <span class="nowrap">{`${a.broker.code} · ${a.account_no}`}</span>;

/** A table that scrolls sideways on a narrow screen, reachable by keyboard to do so; a group, not a second landmark beside its section. */
function Scroll(props: { label: string; children: Child }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: the <fieldset> it suggests groups form controls, and its default min-inline-size: min-content would stop the very scrolling this box is for.
    <div class="scroll" role="group" aria-label={props.label} tabindex={0}>
      {props.children}
    </div>
  );
}

/** A section of the page under its heading, which names it. */
export function Section(props: { id: string; title: Child; children: Child }) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** A summary card: what the figure is, and the figure. */
export function Figure(props: { name: string; term: string; children: Child }) {
  return (
    <div data-figure={props.name}>
      <dt>{props.term}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

/** A card whose figure is one amount, with what it may say under it. */
export function MoneyFigure(props: { name: string; term: string; value: Decimal; signed?: boolean; children?: Child }) {
  return (
    <Figure name={props.name} term={props.term}>
      <Money value={props.value} signed={props.signed} />
      {props.children}
    </Figure>
  );
}

/** One column of a DataTable: its heading, and what it shows of a row. */
export interface Column<R> {
  head: string;
  /** Figures: aligned right. */
  num?: boolean;
  /** The cell that names the row (<th scope="row">). */
  names?: boolean;
  /** Text that may break onto more lines, so the table fits a phone's width (names, lists). */
  wrap?: boolean;
  cell: (row: R) => Child;
}

/**
 * A table of `rows`, one column a field, in a Scroll; `empty` says so instead when there are none.
 * On a phone each row becomes a card of its own (src/page/styles.ts), each cell under its
 * column's heading, which it carries as data-label: nothing scrolls sideways.
 */
export function DataTable<R>(props: {
  label: string;
  empty?: string;
  /** Its data-table name, which tests and scrapers find it by. */
  id?: string;
  caption?: string;
  columns: Column<R>[];
  rows: R[];
  /** The row's own attributes (data-id, data-month). */
  rowAttributes?: (row: R) => Record<string, string>;
  foot?: Child;
}) {
  const { columns } = props;
  if (props.empty !== undefined && props.rows.length === 0) return <p>{props.empty}</p>;
  return (
    <Scroll label={props.label}>
      <table data-table={props.id}>
        {props.caption === undefined ? null : <caption>{props.caption}</caption>}
        <thead>
          <tr>
            {columns.map((c) => (
              <th scope="col" class={c.num ? "num" : c.wrap ? "wrap" : undefined}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr {...props.rowAttributes?.(row)}>
              {columns.map((c) =>
                c.names ? (
                  <th scope="row" class={c.wrap ? "wrap" : undefined} data-label={c.head}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td class={c.num ? "num" : c.wrap ? "wrap" : undefined} data-label={c.head}>
                    {/* One box beside the label when the row is a card. */}
                    <span>{c.cell(row)}</span>
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
        {props.foot}
      </table>
    </Scroll>
  );
}
