/**
 * How the portfolio has done (GET /api/performance/:slug, its rules in docs/performance.md):
 * today's change at the top of the page, as a broker app opens on, and below it the chosen
 * range's figures and two charts, then what moved it (./moved.tsx), the range picked by link (no
 * script). Both read the API's own statement in the page's batch (src/db/queries/customer-page.ts).
 */
import type { Child } from "hono/jsx";
import type { PerformanceRead } from "../db/queries";
import type { Performance, PerformanceRange } from "../schemas";
import { PairChart } from "./charts";
import { DataTable, Day, Figure, Money, MoneyFigure, Rate, Section } from "./kit";
import { DrawdownFigure, Positions } from "./positions";
import { RANGE_LINKS, rangeHref } from "./query";
import { useView } from "./view";

/** The chosen range's read, or the `range` the reader gave when it is not one of ours (the page's 400). */
export type ChosenRange = { kind: "range"; range: PerformanceRange; read: PerformanceRead } | { kind: "invalid"; value: string };

/** The period's two dates, s → e, as the figures count what happened after s. */
function Period(props: { data: Performance }) {
  const { start_date: s, end_date: e } = props.data;
  if (s === null || e === null) return null;
  return (
    <small data-period>
      <Day iso={s} /> → <Day iso={e} />
    </small>
  );
}

/** Positions with no close yet, which the value counts at their cost: how many, and how much of the value. */
function AtCost(props: { data: Performance }) {
  const { t, f } = useView();
  const { unpriced_positions: count, unpriced_value: value } = props.data;
  if (count === 0) return null;
  return (
    <small data-note="unpriced" data-value={value.text}>
      {t.unpricedAtCost(count, f.count(count), f.money(value))}
    </small>
  );
}

/** The read is usable: steps built and at least one point. */
export function usable(read: PerformanceRead): read is Performance & { end_date: string } {
  return read !== "building" && read.end_date !== null;
}

function NotYet(props: { read: PerformanceRead }) {
  const { t } = useView();
  return <p>{props.read === "building" ? t.building : t.noPerformance}</p>;
}

/**
 * The latest session's change (`1d`): what the portfolio is worth and how it moved since the
 * market day before. Called today only when its session is today in Vietnam (View.today), else
 * the latest session, with its date: a weekend, a holiday, a back office not yet synced.
 */
export function Today(props: { read: PerformanceRead }) {
  const { t, today } = useView();
  const { read } = props;
  const isToday = usable(read) && read.end_date === today;
  const title = isToday ? (
    t.performanceToday
  ) : usable(read) ? (
    <>
      {t.latestSession}: <Day iso={read.end_date} />
    </>
  ) : (
    t.latestSession
  );
  return (
    <Section id="today" title={title}>
      {usable(read) ? (
        <dl class="cards today" data-performance="1d" data-session={isToday ? "today" : "latest"}>
          <MoneyFigure name="today_value" term={t.worth} value={read.end_value}>
            <Period data={read} />
            <AtCost data={read} />
          </MoneyFigure>
          <Figure name="today_change" term={isToday ? t.todayChange : t.sessionChange}>
            <span data-part="pnl">
              <Money value={read.pnl} signed />
            </span>{" "}
            <span data-part="twr">
              <Rate value={read.twr} />
            </span>
          </Figure>
        </dl>
      ) : (
        <NotYet read={read} />
      )}
    </Section>
  );
}

function RangeLinks(props: { current?: PerformanceRange }) {
  const { lang, t, slug } = useView();
  return (
    <nav class="ranges" aria-label={t.ranges}>
      <ul>
        {RANGE_LINKS.map((range) => (
          <li>
            <a href={rangeHref(slug, lang, range)} aria-current={range === props.current ? "page" : undefined}>
              {t.rangeNames[range]}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function Figures(props: { data: Performance; range: PerformanceRange }) {
  const { t } = useView();
  const { data } = props;
  const { mwr, annualized, benchmark } = data;
  const mwrWhy = mwr.status === "no_root" ? t.mwrNoRoot : mwr.status === "no_period" ? t.mwrNoPeriod : undefined;
  return (
    <dl class="cards" data-performance={props.range}>
      <MoneyFigure name="period_pnl" term={t.periodPnl} value={data.pnl} signed>
        <Period data={data} />
      </MoneyFigure>
      <Figure name="period_twr" term={t.twr}>
        <Rate value={data.twr} />
      </Figure>
      <Figure name="period_mwr" term={t.mwr}>
        <Rate value={mwr.rate} why={mwrWhy} />
      </Figure>
      {annualized ? (
        <>
          <Figure name="period_annualized_twr" term={t.annualizedTwr}>
            <Rate value={annualized.twr} why={t.noRate} />
          </Figure>
          <Figure name="period_annualized_mwr" term={t.annualizedMwr}>
            <Rate value={annualized.mwr} why={mwrWhy ?? t.noRate} />
          </Figure>
        </>
      ) : null}
      <Figure name="period_benchmark" term={t.benchmarkReturn(benchmark.code)}>
        <Rate value={benchmark.return} why={t.noBenchmark} />
      </Figure>
      <DrawdownFigure drawdown={data.drawdown} />
      <MoneyFigure name="period_dividends_receivable" term={t.receivable} value={data.dividends_receivable} />
    </dl>
  );
}

/** A chart of two series and, folded below it, the same figures as a table, one row a point. */
function ChartWithTable(props: {
  name: string;
  title: string;
  legend: [string, string];
  chart: Child;
  columns: { head: string; cell: (i: number) => Child }[];
  dates: string[];
}) {
  const { t } = useView();
  return (
    <figure>
      <figcaption id={`${props.name}-chart-heading`}>{props.title}</figcaption>
      {props.chart}
      <ul class="legend" aria-hidden="true">
        <li>
          <span />
          {props.legend[0]}
        </li>
        <li class="second">
          <span />
          {props.legend[1]}
        </li>
      </ul>
      <details>
        <summary>{t.chartData}</summary>
        <DataTable
          label={props.title}
          id={props.name}
          columns={[
            { head: t.date, names: true, cell: (i) => <Day iso={props.dates[i]!} /> },
            ...props.columns.map((c) => ({ ...c, num: true })),
          ]}
          rows={props.dates.map((_, i) => i)}
          rowAttributes={(i) => ({ "data-date": props.dates[i]! })}
        />
      </details>
    </figure>
  );
}

function PerformanceCharts(props: { data: Performance }) {
  const { t, f } = useView();
  const { points, benchmark } = props.data;
  const dates = points.map((p) => p.date);
  const first = f.date(dates[0]!);
  const last = f.date(dates[dates.length - 1]!);
  const end = points[points.length - 1]!;
  const labelled = points.map((p) => ({ label: f.date(p.date), value: p.value.toNumber() }));
  return (
    <div class="charts">
      <ChartWithTable
        name="performance_value"
        title={t.valueChart}
        legend={[t.value, t.netInvested]}
        dates={dates}
        chart={
          <PairChart
            id="performance-value-chart"
            title={t.valueChart}
            description={t.valueChartDesc(first, last, f.money(end.value), f.money(end.net_invested))}
            points={labelled}
            second={points.map((p) => p.net_invested.toNumber())}
            axis={f.compactMoney}
            maxLabels={3}
          />
        }
        columns={[
          { head: t.value, cell: (i) => <Money value={points[i]!.value} /> },
          { head: t.netInvested, cell: (i) => <Money value={points[i]!.net_invested} /> },
        ]}
      />
      <ChartWithTable
        name="performance_return"
        title={t.returnChart}
        legend={[t.twr, benchmark.code]}
        dates={dates}
        chart={
          <PairChart
            id="performance-return-chart"
            title={t.returnChart}
            description={t.returnChartDesc(
              first,
              last,
              f.rate(end.twr),
              benchmark.code,
              end.benchmark ? f.rate(end.benchmark) : "—",
            )}
            points={points.map((p) => ({ label: f.date(p.date), value: p.twr.toNumber() }))}
            // A point without the benchmark's start close has no benchmark: drawn at 0, its table row says "—".
            second={points.map((p) => p.benchmark?.toNumber() ?? 0)}
            axis={f.compactRate}
            maxLabels={3}
          />
        }
        columns={[
          { head: t.twr, cell: (i) => <Rate value={points[i]!.twr} /> },
          { head: benchmark.code, cell: (i) => <Rate value={points[i]!.benchmark} /> },
        ]}
      />
    </div>
  );
}

/** The chosen range: its links, its figures (the worst fall among them), its two charts and each stock's part; or why there are none. */
export function PerformanceSection(props: { chosen: ChosenRange }) {
  const { t } = useView();
  const { chosen } = props;
  return (
    <Section id="performance" title={t.performance}>
      {chosen.kind === "invalid" ? (
        <div class="problem" role="alert">
          <p>{t.invalidRange(chosen.value)}</p>
        </div>
      ) : null}
      <RangeLinks current={chosen.kind === "range" ? chosen.range : undefined} />
      {chosen.kind === "invalid" ? null : usable(chosen.read) ? (
        <>
          <Figures data={chosen.read} range={chosen.range} />
          <PerformanceCharts data={chosen.read} />
          <Positions positions={chosen.read.positions} />
        </>
      ) : (
        <NotYet read={chosen.read} />
      )}
    </Section>
  );
}
