/**
 * The two charts by month (cumulative realized P&L, trades), on one axis of months from the
 * first to the last with any figure, each with its figures folded away below it as a table.
 */
import type { Aggregate } from "../db/queries";
import { Decimal } from "../domain/decimal";
import { BarChart, LineChart, cumulative, monthsBetween } from "./charts";
import { type Column, Count, DataTable, Money, Section } from "./kit";
import { useView } from "./view";

/**
 * A figure by month as a chart under its heading, and the same figures folded away below it as
 * a table, one row a month.
 */
function MonthChart(props: {
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
  const { t, f } = useView();
  const { months } = props;
  return (
    <Section id={`${props.name}-chart-heading`} title={props.title}>
      <props.Chart
        id={`${props.name}-chart`}
        title={props.title}
        description={props.description}
        points={months.map((m, i) => ({ label: f.month(m), value: props.values[i]! }))}
        axis={props.axis}
      />
      <details>
        <summary>{t.chartData}</summary>
        <DataTable
          label={props.title}
          id={props.table}
          columns={[{ head: t.month, names: true, cell: (i) => f.month(months[i]!) }, ...props.columns]}
          rows={months.map((_, i) => i)}
          rowAttributes={(i) => ({ "data-month": months[i]! })}
        />
      </details>
    </Section>
  );
}

export function Charts(props: { aggregate: Aggregate }) {
  const { t, f } = useView();
  const { monthly_trade_counts: counts, monthly_realized_pnl: pnl } = props.aggregate.analytics.summary;
  const keys = [...Object.keys(counts), ...Object.keys(pnl)].sort();
  const months = keys.length ? monthsBetween(keys[0]!, keys[keys.length - 1]!) : [];
  const monthPnl = months.map((m) => pnl[m] ?? Decimal.ZERO);
  const running = cumulative(monthPnl);
  const monthCounts = months.map((m) => counts[m] ?? 0);
  const first = months.length ? f.month(months[0]!) : "";
  const last = months.length ? f.month(months[months.length - 1]!) : "";
  const busiest = monthCounts.indexOf(Math.max(...monthCounts));

  if (months.length === 0) {
    return (
      <Section id="pnl-chart-heading" title={t.pnlChart}>
        <p>{t.noChartData}</p>
      </Section>
    );
  }
  return (
    <div class="charts">
      <MonthChart
        name="pnl"
        title={t.pnlChart}
        Chart={LineChart}
        description={t.pnlChartDesc(
          first,
          last,
          f.money(running[running.length - 1]!),
          f.money(running.reduce((a, b) => (Decimal.compare(b, a) < 0 ? b : a))),
          f.money(running.reduce((a, b) => (Decimal.compare(b, a) > 0 ? b : a))),
        )}
        months={months}
        values={running.map((d) => d.toNumber())}
        axis={f.compactMoney}
        table="monthly_realized_pnl"
        columns={[
          { head: t.monthPnl, num: true, cell: (i) => <Money value={monthPnl[i]!} /> },
          { head: t.cumulativePnl, num: true, cell: (i) => <Money value={running[i]!} /> },
        ]}
      />
      <MonthChart
        name="trades"
        title={t.tradesChart}
        Chart={BarChart}
        description={t.tradesChartDesc(
          first,
          last,
          f.count(monthCounts.reduce((a, b) => a + b, 0)),
          f.month(months[busiest]!),
          f.count(monthCounts[busiest]!),
        )}
        months={months}
        values={monthCounts}
        axis={f.count}
        table="monthly_trade_counts"
        columns={[{ head: t.tradeCount, num: true, cell: (i) => <Count value={monthCounts[i]!} /> }]}
      />
    </div>
  );
}
