/**
 * The trade history: the filter form of GET /api/transactions/:slug as a plain form, one page of
 * trades, the page links, and what is wrong with the filters when they are invalid (the page
 * then answers 400 and shows no trades). Links keep the filters and the language.
 */
import type { Aggregate, HistoryPage } from "../db/queries";
import type { HistoryQuery, Transaction } from "../schemas";
import { Count, DataTable, Day, Money, Price, Section, accountName } from "./kit";
import { type Filter, type FilterIssue, pageHref, typedDate } from "./query";
import { useView } from "./view";

/** What the filter form shows: the validated query, or what the person typed when it was invalid. */
export type FormValues = Partial<Record<Filter, string>>;

export type HistoryState =
  | { kind: "page"; query: HistoryQuery; page: HistoryPage }
  | { kind: "invalid"; issues: FilterIssue[]; values: FormValues };

/**
 * A date typed dd/mm/yyyy, as the page shows dates, never the browser's own date field (which
 * shows mm/dd/yyyy on a Vietnamese page in an English browser); the route reads it as
 * YYYY-MM-DD (isoDate), the form a link sends too.
 */
function DateInput(props: { name: "start_date" | "end_date"; label: string; value?: string }) {
  const { t } = useView();
  return (
    <label>
      {props.label}
      <input
        name={props.name}
        value={typedDate(props.value)}
        placeholder={t.datePlaceholder}
        pattern={DATE_PATTERN}
        title={t.dateHint}
        maxlength={10}
        autocomplete="off"
      />
    </label>
  );
}

/** dd/mm/yyyy, or the YYYY-MM-DD of a link. */
const DATE_PATTERN = "\\d{1,2}/\\d{1,2}/\\d{4}|\\d{4}-\\d{2}-\\d{2}";

function FilterForm(props: { aggregate: Aggregate; values: FormValues; perPage?: string }) {
  const { lang, t, slug, range } = useView();
  const { values } = props;
  const brokers = new Map(props.aggregate.customer.accounts.map((a) => [a.broker.code.toLowerCase(), a.broker]));
  const chosen = values.broker?.toLowerCase();
  return (
    <form class="filters" method="get" action={`/c/${encodeURIComponent(slug)}`} aria-label={t.filters}>
      <input type="hidden" name="lang" value={lang} />
      {range ? <input type="hidden" name="range" value={range} /> : null}
      {props.perPage ? <input type="hidden" name="per_page" value={props.perPage} /> : null}
      <label>
        {t.broker}
        <select name="broker">
          <option value="">{t.allBrokers}</option>
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
        {t.stockCode}
        <input name="stock_code" value={values.stock_code ?? ""} maxlength={10} autocomplete="off" spellcheck={false} />
      </label>
      <label>
        {t.type}
        <select name="type">
          <option value="">{t.allTypes}</option>
          <option value="buy" selected={values.type === "buy"}>
            {t.buy}
          </option>
          <option value="sell" selected={values.type === "sell"}>
            {t.sell}
          </option>
        </select>
      </label>
      <DateInput name="start_date" label={t.fromDate} value={values.start_date} />
      <DateInput name="end_date" label={t.toDate} value={values.end_date} />
      <div class="actions">
        <button type="submit">{t.apply}</button>
        <a href={pageHref(slug, lang, {}, range)}>{t.clear}</a>
      </div>
    </form>
  );
}

function TradeTable(props: { trades: Transaction[] }) {
  const { t } = useView();
  return (
    <DataTable
      label={t.history}
      id="history"
      columns={[
        { head: t.date, cell: (tx) => <Day iso={tx.trade_date} /> },
        { head: t.stock, names: true, cell: (tx) => tx.stock_code },
        { head: t.type, cell: (tx) => <data value={tx.type}>{tx.type === "buy" ? t.buy : t.sell}</data> },
        { head: t.quantity, num: true, cell: (tx) => <Count value={tx.quantity} /> },
        { head: t.price, num: true, cell: (tx) => <Price value={tx.price} /> },
        { head: t.value, num: true, cell: (tx) => <Money value={tx.total_value} /> },
        { head: t.fee, num: true, cell: (tx) => <Money value={tx.fee} /> },
        { head: t.tax, num: true, cell: (tx) => <Money value={tx.personal_tax} /> },
        { head: t.account, cell: (tx) => accountName(tx.account) },
      ]}
      rows={props.trades}
      rowAttributes={(tx) => ({ "data-id": tx.id })}
    />
  );
}

function Pagination(props: { query: HistoryQuery; total: number }) {
  const { lang, t, f, slug, range } = useView();
  const { query, total } = props;
  const pages = Math.max(1, Math.ceil(total / query.per_page));
  const link = (page: number) => pageHref(slug, lang, { ...query, page }, range);
  return (
    <nav class="pages" aria-label={t.pagination}>
      <p data-total={String(total)}>{t.pageOf(f.count(query.page), f.count(pages), f.count(total))}</p>
      <ul>
        {query.page > 1 ? (
          <li>
            <a href={link(Math.min(query.page - 1, pages))} rel="prev">
              {t.previous}
            </a>
          </li>
        ) : null}
        {query.page < pages ? (
          <li>
            <a href={link(query.page + 1)} rel="next">
              {t.next}
            </a>
          </li>
        ) : null}
      </ul>
    </nav>
  );
}

/** Each problem once (the schema may report a field more than once), in the reader's words. */
function Problems(props: { issues: FilterIssue[] }) {
  const { t } = useView();
  const seen = new Set<string>();
  const lines = props.issues.filter((issue) => {
    const key = `${issue.field}:${issue.order}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return (
    <div class="problem" role="alert" id="filter-problems">
      <h3>{t.invalidFilters}</h3>
      <p>{t.invalidFiltersHint}</p>
      <ul>
        {lines.map((issue) => (
          <li data-field={issue.field}>
            {t.fieldNames[issue.field] ?? issue.field}: {issue.order ? t.startAfterEnd : (t.fieldProblems[issue.field] ?? "")}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function History(props: { aggregate: Aggregate; state: HistoryState }) {
  const { lang, t, slug, range } = useView();
  const { state } = props;
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
    <Section id="history" title={t.history}>
      {state.kind === "invalid" ? <Problems issues={state.issues} /> : null}
      <FilterForm aggregate={props.aggregate} values={values} perPage={perPage} />
      {state.kind === "page" ? (
        state.page.data.length ? (
          <>
            <TradeTable trades={state.page.data} />
            <Pagination query={state.query} total={state.page.total} />
          </>
        ) : state.page.total > 0 ? (
          <p>
            {t.pastTheEnd} <a href={pageHref(slug, lang, { ...state.query, page: 1 }, range)}>{t.firstPage}</a>
          </p>
        ) : (
          <p>{t.noTrades}</p>
        )
      ) : null}
    </Section>
  );
}
