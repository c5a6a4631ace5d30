/**
 * The sections of a customer's page, in the order the page shows them. Figures are wrapped in
 * <data value> (amounts, counts) and <time datetime> (dates) holding the API's own value, so a
 * machine reads exactly what the API answered beside the text a person reads.
 */
import type { Child } from "hono/jsx";
import { Decimal } from "../domain/decimal";
import type { Aggregate, HistoryPage } from "../db/queries";
import type { HistoryQuery, Holding, Transaction } from "../schemas";
import { BarChart, LineChart, cumulative, monthsBetween } from "./charts";
import type { Format } from "./format";
import { type Lang, MESSAGES, type Messages } from "./i18n";
import { type FilterIssue, type Filter, pageHref } from "./query";

export interface View {
  lang: Lang;
  t: Messages;
  f: Format;
  slug: string;
}

type Deal = Aggregate["analytics"]["top_wins"][number];

const tone = (value: Decimal) => (value.sign() > 0 ? "gain" : value.sign() < 0 ? "loss" : undefined);

/** An amount: its exact text in value (as the API writes it), the locale's in the text. */
const Money = (p: { v: View; value: Decimal; signed?: boolean }) => (
  <data value={p.value.text} class={p.signed ? tone(p.value) : undefined}>
    {p.v.f.money(p.value)}
  </data>
);
const Count = (p: { v: View; value: number }) => <data value={String(p.value)}>{p.v.f.count(p.value)}</data>;
const Day = (p: { v: View; iso: string }) => <time datetime={p.iso}>{p.v.f.date(p.iso)}</time>;

/** A table that scrolls sideways on a narrow screen, reachable by keyboard to do so; a group, not a second landmark beside its section. */
function Scroll(props: { label: string; children: Child }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: the <fieldset> it suggests groups form controls, and its default min-inline-size: min-content would stop the very scrolling this box is for.
    <div class="scroll" role="group" aria-label={props.label} tabindex={0}>
      {props.children}
    </div>
  );
}

/** One column of a DataTable: its heading, and what it shows of a row. */
interface Column<R> {
  head: string;
  /** Figures: aligned right. */
  num?: boolean;
  /** The cell that names the row (<th scope="row">). */
  names?: boolean;
  cell: (row: R) => Child;
}

/** A section of the page under its heading, which names it. */
function Section(props: { id: string; title: string; children: Child }) {
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      {props.children}
    </section>
  );
}

/** A table of `rows`, one column a field, in a Scroll; `empty` says so instead when there are none. */
function DataTable<R>(props: {
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
              <th scope="col" class={c.num ? "num" : undefined}>
                {c.head}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr {...props.rowAttributes?.(row)}>
              {columns.map((c) =>
                c.names ? <th scope="row">{c.cell(row)}</th> : <td class={c.num ? "num" : undefined}>{c.cell(row)}</td>,
              )}
            </tr>
          ))}
        </tbody>
        {props.foot}
      </table>
    </Scroll>
  );
}

/**
 * A figure by month as a chart under its heading, and the same figures folded away below it as
 * a table, one row a month.
 */
function MonthChart(props: {
  v: View;
  /** Names the chart's ids: `${name}-chart`, `${name}-chart-heading`. */
  name: string;
  title: string;
  Chart: typeof LineChart;
  description: string;
  months: string[];
  values: number[];
  axis: (value: number) => string;
  /** The table's data-table name and its columns after the month. */
  table: string;
  columns: Column<number>[];
}) {
  const { v, months } = props;
  return (
    <Section id={`${props.name}-chart-heading`} title={props.title}>
      <props.Chart
        id={`${props.name}-chart`}
        title={props.title}
        description={props.description}
        points={months.map((m, i) => ({ label: v.f.month(m), value: props.values[i]! }))}
        axis={props.axis}
      />
      <details>
        <summary>{v.t.chartData}</summary>
        <DataTable
          label={props.title}
          id={props.table}
          columns={[{ head: v.t.month, names: true, cell: (i) => v.f.month(months[i]!) }, ...props.columns]}
          rows={months.map((_, i) => i)}
          rowAttributes={(i) => ({ "data-month": months[i]! })}
        />
      </details>
    </Section>
  );
}

/** An account as the page names it: its broker's code and its number. */
const accountName = (a: Holding["account"]) => `${a.broker.code} · ${a.account_no}`;

export function PageHeader(props: { v: View; aggregate?: Aggregate; otherLanguageHref: string }) {
  const { v, aggregate } = props;
  const other = v.lang === "vi" ? "en" : "vi";
  return (
    <div class="top">
      <div>
        {aggregate ? (
          <>
            <h1>{v.t.title(aggregate.customer.name)}</h1>
            <p class="staff">
              {v.t.staff}: <strong>{aggregate.customer.staff.name}</strong> ·{" "}
              <a href={`mailto:${aggregate.customer.staff.email}`}>{aggregate.customer.staff.email}</a>
            </p>
          </>
        ) : null}
      </div>
      <a href={props.otherLanguageHref} hreflang={other} lang={other}>
        {v.t.otherLanguage}
      </a>
    </div>
  );
}

export function Accounts(props: { v: View; aggregate: Aggregate }) {
  const { v } = props;
  const byBroker = new Map<string, { name: string; code: string; numbers: string[] }>();
  for (const account of props.aggregate.customer.accounts) {
    const entry = byBroker.get(account.broker.id) ?? { name: account.broker.name, code: account.broker.code, numbers: [] };
    entry.numbers.push(account.account_no);
    byBroker.set(account.broker.id, entry);
  }
  return (
    <Section id="accounts" title={v.t.accounts}>
      <DataTable
        label={v.t.accounts}
        empty={v.t.noAccounts}
        columns={[
          { head: v.t.broker, names: true, cell: (b) => b.name },
          { head: v.t.brokerCode, cell: (b) => b.code },
          { head: v.t.accountNumbers, cell: (b) => b.numbers.join(", ") },
        ]}
        rows={[...byBroker.values()]}
      />
    </Section>
  );
}

/** A summary card: what the figure is, and the figure. */
function Figure(props: { name: string; term: string; children: Child }) {
  return (
    <div data-figure={props.name}>
      <dt>{props.term}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

export function Summary(props: { v: View; aggregate: Aggregate }) {
  const { v } = props;
  const s = props.aggregate.analytics.summary;
  return (
    <Section id="summary" title={v.t.summary}>
      <dl class="cards">
        <Figure name="total_realized_pnl" term={v.t.realizedPnl}>
          <Money v={v} value={s.total_realized_pnl} signed />
        </Figure>
        <Figure name="win_rate" term={v.t.winRate}>
          <data value={String(s.win_rate)}>{v.f.percent(s.win_rate)}</data>
          <small>{v.t.deals(v.f.count(s.win_deals), v.f.count(s.loss_deals), v.f.count(s.total_deals))}</small>
        </Figure>
        <Figure name="profit_factor" term={v.t.profitFactor}>
          {s.profit_factor === null ? (
            <data value="">{v.t.noLosses}</data>
          ) : (
            <data value={s.profit_factor.text}>{v.f.ratio(s.profit_factor)}</data>
          )}
        </Figure>
        <Figure name="avg_win_pnl" term={v.t.avgWin}>
          <Money v={v} value={s.avg_win_pnl} signed />
        </Figure>
        <Figure name="avg_loss_pnl" term={v.t.avgLoss}>
          <Money v={v} value={s.avg_loss_pnl} signed />
        </Figure>
        <Figure name="avg_holding_days" term={v.t.avgHoldingDays}>
          <data value={`${s.avg_holding_days_win} ${s.avg_holding_days_loss}`}>
            {v.t.holdingDaysValue(v.f.days(s.avg_holding_days_win), v.f.days(s.avg_holding_days_loss))}
          </data>
        </Figure>
        <Figure name="total_fee_tax" term={v.t.feesAndTax}>
          <Money v={v} value={s.total_fee_tax} />
        </Figure>
      </dl>
    </Section>
  );
}

export function Charts(props: { v: View; aggregate: Aggregate }) {
  const { v } = props;
  const { monthly_trade_counts: counts, monthly_realized_pnl: pnl } = props.aggregate.analytics.summary;
  const keys = [...Object.keys(counts), ...Object.keys(pnl)].sort();
  const months = keys.length ? monthsBetween(keys[0]!, keys[keys.length - 1]!) : [];
  const monthPnl = months.map((m) => pnl[m] ?? Decimal.ZERO);
  const running = cumulative(monthPnl);
  const monthCounts = months.map((m) => counts[m] ?? 0);
  const first = months.length ? v.f.month(months[0]!) : "";
  const last = months.length ? v.f.month(months[months.length - 1]!) : "";
  const busiest = monthCounts.indexOf(Math.max(...monthCounts));

  if (months.length === 0) {
    return (
      <Section id="pnl-chart-heading" title={v.t.pnlChart}>
        <p>{v.t.noChartData}</p>
      </Section>
    );
  }
  return (
    <div class="charts">
      <MonthChart
        v={v}
        name="pnl"
        title={v.t.pnlChart}
        Chart={LineChart}
        description={v.t.pnlChartDesc(
          first,
          last,
          v.f.money(running[running.length - 1]!),
          v.f.money(running.reduce((a, b) => (Decimal.compare(b, a) < 0 ? b : a))),
          v.f.money(running.reduce((a, b) => (Decimal.compare(b, a) > 0 ? b : a))),
        )}
        months={months}
        values={running.map((d) => d.toNumber())}
        axis={v.f.compactMoney}
        table="monthly_realized_pnl"
        columns={[
          { head: v.t.monthPnl, num: true, cell: (i) => <Money v={v} value={monthPnl[i]!} /> },
          { head: v.t.cumulativePnl, num: true, cell: (i) => <Money v={v} value={running[i]!} /> },
        ]}
      />
      <MonthChart
        v={v}
        name="trades"
        title={v.t.tradesChart}
        Chart={BarChart}
        description={v.t.tradesChartDesc(
          first,
          last,
          v.f.count(monthCounts.reduce((a, b) => a + b, 0)),
          v.f.month(months[busiest]!),
          v.f.count(monthCounts[busiest]!),
        )}
        months={months}
        values={monthCounts}
        axis={v.f.count}
        table="monthly_trade_counts"
        columns={[{ head: v.t.tradeCount, num: true, cell: (i) => <Count v={v} value={monthCounts[i]!} /> }]}
      />
    </div>
  );
}

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

/** A money figure the API may leave null (an unpriced holding): "no price" then, with an empty value. */
function MaybeMoney(props: { v: View; value: Decimal | null; signed?: boolean }) {
  if (props.value === null) return <data value="">{props.v.t.noPrice}</data>;
  return <Money v={props.v} value={props.value} signed={props.signed} />;
}

export function Holdings(props: { v: View; aggregate: Aggregate }) {
  const { v } = props;
  const holdings = props.aggregate.portfolio;
  const { valuation } = props.aggregate.stats;
  // The exact sum of the costs; shares are only drawn and shown as rounded percentages.
  const totalCost = Decimal.sum(holdings.map((h) => h.total_cost));
  // Allocation by market value; an unpriced holding weighs its cost, and says so.
  const weight = (h: Holding) => h.market_value ?? h.total_cost;
  const totalWeight = Decimal.sum(holdings.map(weight));
  const share = (h: Holding) => weight(h).ratioTo(totalWeight);
  return (
    <Section id="holdings" title={v.t.holdings}>
      <DataTable
        label={v.t.holdings}
        empty={v.t.noHoldings}
        id="holdings"
        columns={[
          { head: v.t.stock, names: true, cell: (h) => h.stock_code },
          { head: v.t.account, cell: (h) => accountName(h.account) },
          { head: v.t.quantity, num: true, cell: (h) => <Count v={v} value={h.quantity} /> },
          { head: v.t.avgCost, num: true, cell: (h) => <Money v={v} value={h.avg_cost} /> },
          { head: v.t.totalCost, num: true, cell: (h) => <Money v={v} value={h.total_cost} /> },
          {
            head: v.t.marketPrice,
            num: true,
            cell: (h) =>
              h.market_price === null || h.price_date === null ? (
                <data value="">{v.t.noPrice}</data>
              ) : (
                <>
                  <data value={h.market_price.text}>{v.f.price(h.market_price)}</data>
                  <small>
                    <Day v={v} iso={h.price_date} />
                  </small>
                </>
              ),
          },
          { head: v.t.marketValue, num: true, cell: (h) => <MaybeMoney v={v} value={h.market_value} /> },
          { head: v.t.unrealizedPnl, num: true, cell: (h) => <MaybeMoney v={v} value={h.unrealized_pnl} signed /> },
          {
            head: v.t.allocation,
            num: true,
            cell: (h) => (
              <>
                {v.f.percent(share(h))}
                {h.market_value === null ? <small> ({v.t.byCost})</small> : null}
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
                {v.t.total}
              </th>
              <td class="num">
                <Money v={v} value={totalCost} />
              </td>
              <td />
              <td class="num">
                <Money v={v} value={valuation.market_value} />
              </td>
              <td class="num">
                <Money v={v} value={valuation.unrealized_pnl} signed />
              </td>
              <td class="num">{v.f.percent(totalWeight.sign() > 0 ? 1 : 0)}</td>
            </tr>
          </tfoot>
        }
      />
    </Section>
  );
}

// ---------------------------------------------------------------------------------------------
// What the portfolio is worth at the latest closes (DESIGN §6.1), beside the realized figures.

export function Valuation(props: { v: View; aggregate: Aggregate }) {
  const { v } = props;
  const { valuation } = props.aggregate.stats;
  if (valuation.priced_holdings + valuation.unpriced_holdings === 0) return null;
  return (
    <Section id="valuation" title={v.t.valuation}>
      {valuation.as_of === null ? <p>{v.t.noPrices}</p> : null}
      <dl class="cards">
        <Figure name="market_value" term={v.t.marketValue}>
          <Money v={v} value={valuation.market_value} />
          {valuation.as_of === null ? null : (
            <small>
              {v.t.asOf} <time datetime={valuation.as_of}>{v.f.date(valuation.as_of)}</time>
            </small>
          )}
        </Figure>
        <Figure name="unrealized_pnl" term={v.t.unrealizedPnl}>
          <Money v={v} value={valuation.unrealized_pnl} signed />
        </Figure>
        <Figure name="priced_cost" term={v.t.pricedCost}>
          <Money v={v} value={valuation.priced_cost} />
          {valuation.unpriced_holdings > 0 ? <small>{v.t.unpricedNote(v.f.count(valuation.unpriced_holdings))}</small> : null}
        </Figure>
      </dl>
    </Section>
  );
}

function DealTable(props: { v: View; id: string; caption: string; empty: string; deals: Deal[] }) {
  const { v } = props;
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
        { head: v.t.stock, names: true, cell: (d) => d.stock_code },
        { head: v.t.sellDate, cell: (d) => <Day v={v} iso={d.sell_date} /> },
        { head: v.t.realizedPnl, num: true, cell: (d) => <Money v={v} value={d.realized_pnl} signed /> },
        { head: v.t.holdingDays, num: true, cell: (d) => <Count v={v} value={d.holding_days} /> },
        { head: v.t.quantitySold, num: true, cell: (d) => <Count v={v} value={d.quantity_sold} /> },
      ]}
      rows={props.deals}
    />
  );
}

export function TopDeals(props: { v: View; aggregate: Aggregate }) {
  const { v } = props;
  const { top_wins, top_losses } = props.aggregate.analytics;
  return (
    <Section id="top-deals" title={v.t.topDeals}>
      <div class="deals">
        <DealTable v={v} id="top_wins" caption={v.t.topWins} empty={v.t.noWins} deals={top_wins} />
        <DealTable v={v} id="top_losses" caption={v.t.topLosses} empty={v.t.noLossesYet} deals={top_losses} />
      </div>
    </Section>
  );
}

/** What the filter form shows: the validated query, or what the person typed when it was invalid. */
export type FormValues = Partial<Record<Filter, string>>;

function FilterForm(props: { v: View; aggregate: Aggregate; values: FormValues; perPage?: string }) {
  const { v, values } = props;
  const brokers = new Map(props.aggregate.customer.accounts.map((a) => [a.broker.code.toLowerCase(), a.broker]));
  const chosen = values.broker?.toLowerCase();
  return (
    <form class="filters" method="get" action={`/c/${encodeURIComponent(v.slug)}`} aria-label={v.t.filters}>
      <input type="hidden" name="lang" value={v.lang} />
      {props.perPage ? <input type="hidden" name="per_page" value={props.perPage} /> : null}
      <label>
        {v.t.broker}
        <select name="broker">
          <option value="">{v.t.allBrokers}</option>
          {[...brokers.values()].map((b) => (
            <option value={b.code} selected={b.code.toLowerCase() === chosen}>
              {b.code} · {b.name}
            </option>
          ))}
          {chosen && !brokers.has(chosen) ? (
            <option value={values.broker} selected>
              {values.broker}
            </option>
          ) : null}
        </select>
      </label>
      <label>
        {v.t.stockCode}
        <input name="stock_code" value={values.stock_code ?? ""} maxlength={10} autocomplete="off" spellcheck={false} />
      </label>
      <label>
        {v.t.type}
        <select name="type">
          <option value="">{v.t.allTypes}</option>
          <option value="buy" selected={values.type === "buy"}>
            {v.t.buy}
          </option>
          <option value="sell" selected={values.type === "sell"}>
            {v.t.sell}
          </option>
        </select>
      </label>
      <label>
        {v.t.fromDate}
        <input type="date" name="start_date" value={values.start_date ?? ""} />
      </label>
      <label>
        {v.t.toDate}
        <input type="date" name="end_date" value={values.end_date ?? ""} />
      </label>
      <div class="actions">
        <button type="submit">{v.t.apply}</button>
        <a href={pageHref(v.slug, v.lang, {})}>{v.t.clear}</a>
      </div>
    </form>
  );
}

function TradeTable(props: { v: View; trades: Transaction[] }) {
  const { v } = props;
  return (
    <DataTable
      label={v.t.history}
      id="history"
      columns={[
        { head: v.t.date, cell: (tx) => <Day v={v} iso={tx.trade_date} /> },
        { head: v.t.stock, names: true, cell: (tx) => tx.stock_code },
        { head: v.t.type, cell: (tx) => <data value={tx.type}>{tx.type === "buy" ? v.t.buy : v.t.sell}</data> },
        { head: v.t.quantity, num: true, cell: (tx) => <Count v={v} value={tx.quantity} /> },
        { head: v.t.price, num: true, cell: (tx) => <Money v={v} value={tx.price} /> },
        { head: v.t.value, num: true, cell: (tx) => <Money v={v} value={tx.total_value} /> },
        { head: v.t.fee, num: true, cell: (tx) => <Money v={v} value={tx.fee} /> },
        { head: v.t.tax, num: true, cell: (tx) => <Money v={v} value={tx.personal_tax} /> },
        { head: v.t.account, cell: (tx) => accountName(tx.account) },
      ]}
      rows={props.trades}
      rowAttributes={(tx) => ({ "data-id": tx.id })}
    />
  );
}

function Pagination(props: { v: View; query: HistoryQuery; total: number }) {
  const { v, query, total } = props;
  const pages = Math.max(1, Math.ceil(total / query.per_page));
  const link = (page: number) => pageHref(v.slug, v.lang, { ...query, page });
  return (
    <nav class="pages" aria-label={v.t.pagination}>
      <p data-total={String(total)}>{v.t.pageOf(v.f.count(query.page), v.f.count(pages), v.f.count(total))}</p>
      <ul>
        {query.page > 1 ? (
          <li>
            <a href={link(Math.min(query.page - 1, pages))} rel="prev">
              {v.t.previous}
            </a>
          </li>
        ) : null}
        {query.page < pages ? (
          <li>
            <a href={link(query.page + 1)} rel="next">
              {v.t.next}
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

export type HistoryState =
  | { kind: "page"; query: HistoryQuery; page: HistoryPage }
  | { kind: "invalid"; issues: FilterIssue[]; values: FormValues };

export function History(props: { v: View; aggregate: Aggregate; state: HistoryState }) {
  const { v, state } = props;
  const values: FormValues =
    state.kind === "page"
      ? {
          broker: state.query.broker,
          stock_code: state.query.stock_code,
          type: state.query.type,
          start_date: state.query.start_date,
          end_date: state.query.end_date,
        }
      : state.values;
  const perPage =
    state.kind === "page" ? (state.query.per_page === 10 ? undefined : String(state.query.per_page)) : state.values.per_page;
  return (
    <Section id="history" title={v.t.history}>
      {state.kind === "invalid" ? <Problems v={v} issues={state.issues} /> : null}
      <FilterForm v={v} aggregate={props.aggregate} values={values} perPage={perPage} />
      {state.kind === "page" ? (
        state.page.data.length ? (
          <>
            <TradeTable v={v} trades={state.page.data} />
            <Pagination v={v} query={state.query} total={state.page.total} />
          </>
        ) : state.page.total > 0 ? (
          <p>
            {v.t.pastTheEnd} <a href={pageHref(v.slug, v.lang, { ...state.query, page: 1 })}>{v.t.firstPage}</a>
          </p>
        ) : (
          <p>{v.t.noTrades}</p>
        )
      ) : null}
    </Section>
  );
}

function Problems(props: { v: View; issues: FilterIssue[] }) {
  const { v } = props;
  const seen = new Set<string>();
  const lines = props.issues.filter((issue) => {
    const key = `${issue.field}:${issue.order}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return (
    <div class="problem" role="alert" id="filter-problems">
      <h3>{v.t.invalidFilters}</h3>
      <p>{v.t.invalidFiltersHint}</p>
      <ul>
        {lines.map((issue) => (
          <li data-field={issue.field}>
            {v.t.fieldNames[issue.field] ?? issue.field}:{" "}
            {issue.order ? v.t.startAfterEnd : (v.t.fieldProblems[issue.field] ?? "")}
          </li>
        ))}
      </ul>
    </div>
  );
}

export const viewFor = (lang: Lang, slug: string, f: Format): View => ({ lang, t: MESSAGES[lang], f, slug });
