/**
 * The sections of a customer's page, in the order the page shows them. Figures are wrapped in
 * <data value> (amounts, counts) and <time datetime> (dates) holding the API's own value, so a
 * machine reads exactly what the API answered beside the text a person reads.
 */
import type { Child } from "hono/jsx";
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

const Money = (p: { v: View; value: number; signed?: boolean }) => (
  <data value={String(p.value)} class={p.signed ? (p.value > 0 ? "gain" : p.value < 0 ? "loss" : undefined) : undefined}>
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

/** A table of `rows`, one column a field, in a Scroll. */
function DataTable<R>(props: {
  label: string;
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

/** The figures of a chart, one row a month, folded away under the chart. */
function ChartData(props: { v: View; label: string; id: string; months: string[]; columns: Column<number>[] }) {
  const { v, months } = props;
  return (
    <details>
      <summary>{v.t.chartData}</summary>
      <DataTable
        label={props.label}
        id={props.id}
        columns={[{ head: v.t.month, names: true, cell: (i) => v.f.month(months[i]!) }, ...props.columns]}
        rows={months.map((_, i) => i)}
        rowAttributes={(i) => ({ "data-month": months[i]! })}
      />
    </details>
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
    <section aria-labelledby="accounts">
      <h2 id="accounts">{v.t.accounts}</h2>
      {byBroker.size === 0 ? (
        <p>{v.t.noAccounts}</p>
      ) : (
        <DataTable
          label={v.t.accounts}
          columns={[
            { head: v.t.broker, names: true, cell: (b) => b.name },
            { head: v.t.brokerCode, cell: (b) => b.code },
            { head: v.t.accountNumbers, cell: (b) => b.numbers.join(", ") },
          ]}
          rows={[...byBroker.values()]}
        />
      )}
    </section>
  );
}

export function Summary(props: { v: View; aggregate: Aggregate }) {
  const { v } = props;
  const s = props.aggregate.analytics.summary;
  return (
    <section aria-labelledby="summary">
      <h2 id="summary">{v.t.summary}</h2>
      <dl class="cards">
        <div data-figure="total_realized_pnl">
          <dt>{v.t.realizedPnl}</dt>
          <dd>
            <Money v={v} value={s.total_realized_pnl} signed />
          </dd>
        </div>
        <div data-figure="win_rate">
          <dt>{v.t.winRate}</dt>
          <dd>
            <data value={String(s.win_rate)}>{v.f.percent(s.win_rate)}</data>
            <small>{v.t.deals(v.f.count(s.win_deals), v.f.count(s.loss_deals), v.f.count(s.total_deals))}</small>
          </dd>
        </div>
        <div data-figure="profit_factor">
          <dt>{v.t.profitFactor}</dt>
          <dd>
            {s.profit_factor === null ? (
              <data value="">{v.t.noLosses}</data>
            ) : (
              <data value={String(s.profit_factor)}>{v.f.ratio(s.profit_factor)}</data>
            )}
          </dd>
        </div>
        <div data-figure="avg_win_pnl">
          <dt>{v.t.avgWin}</dt>
          <dd>
            <Money v={v} value={s.avg_win_pnl} signed />
          </dd>
        </div>
        <div data-figure="avg_loss_pnl">
          <dt>{v.t.avgLoss}</dt>
          <dd>
            <Money v={v} value={s.avg_loss_pnl} signed />
          </dd>
        </div>
        <div data-figure="avg_holding_days">
          <dt>{v.t.avgHoldingDays}</dt>
          <dd>
            <data value={`${s.avg_holding_days_win} ${s.avg_holding_days_loss}`}>
              {v.t.holdingDaysValue(v.f.days(s.avg_holding_days_win), v.f.days(s.avg_holding_days_loss))}
            </data>
          </dd>
        </div>
        <div data-figure="total_fee_tax">
          <dt>{v.t.feesAndTax}</dt>
          <dd>
            <Money v={v} value={s.total_fee_tax} />
          </dd>
        </div>
      </dl>
    </section>
  );
}

export function Charts(props: { v: View; aggregate: Aggregate }) {
  const { v } = props;
  const { monthly_trade_counts: counts, monthly_realized_pnl: pnl } = props.aggregate.analytics.summary;
  const keys = [...Object.keys(counts), ...Object.keys(pnl)].sort();
  const months = keys.length ? monthsBetween(keys[0]!, keys[keys.length - 1]!) : [];
  const monthPnl = months.map((m) => pnl[m] ?? 0);
  const running = cumulative(monthPnl);
  const monthCounts = months.map((m) => counts[m] ?? 0);
  const first = months.length ? v.f.month(months[0]!) : "";
  const last = months.length ? v.f.month(months[months.length - 1]!) : "";
  const busiest = monthCounts.indexOf(Math.max(...monthCounts));

  if (months.length === 0) {
    return (
      <section aria-labelledby="pnl-chart-heading">
        <h2 id="pnl-chart-heading">{v.t.pnlChart}</h2>
        <p>{v.t.noChartData}</p>
      </section>
    );
  }
  return (
    <div class="charts">
      <section aria-labelledby="pnl-chart-heading">
        <h2 id="pnl-chart-heading">{v.t.pnlChart}</h2>
        <LineChart
          id="pnl-chart"
          title={v.t.pnlChart}
          description={v.t.pnlChartDesc(
            first,
            last,
            v.f.money(running[running.length - 1]!),
            v.f.money(Math.min(...running)),
            v.f.money(Math.max(...running)),
          )}
          points={months.map((m, i) => ({ label: v.f.month(m), value: running[i]! }))}
          axis={v.f.compactMoney}
        />
        <ChartData
          v={v}
          label={v.t.pnlChart}
          id="monthly_realized_pnl"
          months={months}
          columns={[
            { head: v.t.monthPnl, num: true, cell: (i) => <Money v={v} value={monthPnl[i]!} /> },
            { head: v.t.cumulativePnl, num: true, cell: (i) => <Money v={v} value={running[i]!} /> },
          ]}
        />
      </section>
      <section aria-labelledby="trades-chart-heading">
        <h2 id="trades-chart-heading">{v.t.tradesChart}</h2>
        <BarChart
          id="trades-chart"
          title={v.t.tradesChart}
          description={v.t.tradesChartDesc(
            first,
            last,
            v.f.count(monthCounts.reduce((a, b) => a + b, 0)),
            v.f.month(months[busiest]!),
            v.f.count(monthCounts[busiest]!),
          )}
          points={months.map((m, i) => ({ label: v.f.month(m), value: monthCounts[i]! }))}
          axis={v.f.count}
        />
        <ChartData
          v={v}
          label={v.t.tradesChart}
          id="monthly_trade_counts"
          months={months}
          columns={[{ head: v.t.tradeCount, num: true, cell: (i) => <Count v={v} value={monthCounts[i]!} /> }]}
        />
      </section>
    </div>
  );
}

/** Allocation by cost: each holding's share of the total cost of all holdings. */
function AllocationBar(props: { share: number }) {
  const width = 60;
  return (
    <svg class="bar" width={width} height="10" viewBox={`0 0 ${width} 10`} aria-hidden="true" focusable="false">
      <rect class="track" width={width} height="10" rx="2" />
      <rect class="fill" width={(width * props.share).toFixed(1)} height="10" rx="2" />
    </svg>
  );
}

export function Holdings(props: { v: View; aggregate: Aggregate }) {
  const { v } = props;
  const holdings = props.aggregate.portfolio;
  // Whole cents, so the total is the exact sum of the amounts shown.
  const totalCost = holdings.reduce((sum, h) => sum + Math.round(h.total_cost * 100), 0) / 100;
  const share = (h: Holding) => (totalCost > 0 ? h.total_cost / totalCost : 0);
  return (
    <section aria-labelledby="holdings">
      <h2 id="holdings">{v.t.holdings}</h2>
      {holdings.length === 0 ? (
        <p>{v.t.noHoldings}</p>
      ) : (
        <DataTable
          label={v.t.holdings}
          id="holdings"
          columns={[
            { head: v.t.stock, names: true, cell: (h) => h.stock_code },
            { head: v.t.account, cell: (h) => accountName(h.account) },
            { head: v.t.quantity, num: true, cell: (h) => <Count v={v} value={h.quantity} /> },
            { head: v.t.avgCost, num: true, cell: (h) => <Money v={v} value={h.avg_cost} /> },
            { head: v.t.totalCost, num: true, cell: (h) => <Money v={v} value={h.total_cost} /> },
            {
              head: v.t.allocation,
              num: true,
              cell: (h) => (
                <>
                  {v.f.percent(share(h))}
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
                <td class="num">{v.f.percent(totalCost > 0 ? 1 : 0)}</td>
              </tr>
            </tfoot>
          }
        />
      )}
    </section>
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
    <section aria-labelledby="top-deals">
      <h2 id="top-deals">{v.t.topDeals}</h2>
      <div class="deals">
        <DealTable v={v} id="top_wins" caption={v.t.topWins} empty={v.t.noWins} deals={top_wins} />
        <DealTable v={v} id="top_losses" caption={v.t.topLosses} empty={v.t.noLossesYet} deals={top_losses} />
      </div>
    </section>
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
    <section aria-labelledby="history">
      <h2 id="history">{v.t.history}</h2>
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
    </section>
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
