/**
 * Charts drawn on the server as inline SVG: they show without any script, and each carries a
 * title and a description (role="img"), with the figures themselves in a table beside it.
 * Geometry is in a fixed viewBox; CSS scales the whole drawing to the width it is given.
 */
import type { Child } from "hono/jsx";
import { Decimal } from "../domain/decimal";

export interface Point {
  /** Shown under the axis. */
  label: string;
  value: number;
}

interface ChartProps {
  id: string;
  title: string;
  description: string;
  points: Point[];
  /** Axis labels: short. */
  axis: (value: number) => string;
  /** At most this many labels on the axis under the plot; fewer when they would not fit (labelStep). */
  maxLabels?: number;
}

/**
 * The viewBox, and the margins around the plot that hold the axis labels: the right one holds
 * half of the last date's label, which is centred on its point.
 */
const BOX = { width: 480, height: 240, margin: { left: 96, right: 40, top: 14, bottom: 34 } };
const { left: LEFT, right: RIGHT, top: TOP, bottom: BOTTOM } = BOX.margin;
const PLOT_W = BOX.width - LEFT - RIGHT;
const PLOT_H = BOX.height - TOP - BOTTOM;
const MAX_LABELS = 6;
/** The labels' font size in viewBox units (src/page/styles.ts: .chart text), and room for its line. */
const FONT = 15;
const LINE = FONT + 4;
/**
 * A generous width per character (a digit is about 0.55 em, "/" 0.3, a capital 0.7) and the gap
 * kept between two labels: the labels are chosen by their width, so no two ever touch however
 * the chart is scaled, since the text scales with it.
 */
const CHAR_EM = 0.62;
const GAP = 14;
export const labelWidth = (label: string) => label.length * CHAR_EM * FONT;

/** Every n-th point is labelled, from the first: as many as fit side by side, at most `max`. */
export function labelStep(labels: readonly string[], max: number): number {
  if (labels.length === 0) return 1;
  const widest = Math.max(...labels.map(labelWidth));
  const band = PLOT_W / labels.length;
  return Math.max(Math.ceil(labels.length / max), Math.ceil((widest + GAP) / band));
}

/** `values` are what the vertical axis must hold: every series drawn, not only `points`. */
function scale(points: Point[], values: number[] = points.map((p) => p.value)) {
  const low = Math.min(0, ...values);
  let high = Math.max(0, ...values);
  if (high === low) high = low + 1;
  const y = (v: number) => TOP + ((high - v) / (high - low)) * PLOT_H;
  const band = PLOT_W / Math.max(points.length, 1);
  const x = (i: number) => LEFT + band * (i + 0.5);
  return { low, high, y, x, band };
}

function Frame(props: ChartProps & { values?: number[]; children: Child }) {
  const { id, title, description, points, axis } = props;
  const { low, high, y, x } = scale(points, props.values);
  // The zero line always; an end of the axis only a line's height away from every label kept.
  const ticks: number[] = [];
  for (const t of [0, high, low]) if (ticks.every((k) => Math.abs(y(k) - y(t)) >= LINE)) ticks.push(t);
  const every = labelStep(
    points.map((p) => p.label),
    props.maxLabels ?? MAX_LABELS,
  );
  return (
    <svg
      class="chart"
      viewBox={`0 0 ${BOX.width} ${BOX.height}`}
      role="img"
      aria-labelledby={`${id}-title ${id}-desc`}
      focusable="false"
    >
      <title id={`${id}-title`}>{title}</title>
      <desc id={`${id}-desc`}>{description}</desc>
      {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <g> is never focusable (no tabindex, no links inside); Biome takes every SVG element but <svg> for an interactive one. */}
      <g class="grid" aria-hidden="true">
        {ticks.map((t) => (
          <g>
            <line x1={LEFT} x2={BOX.width - RIGHT} y1={y(t)} y2={y(t)} class={t === 0 ? "zero" : undefined} />
            <text x={LEFT - 6} y={y(t) + 4} text-anchor="end">
              {axis(t)}
            </text>
          </g>
        ))}
        {points.map((p, i) =>
          i % every === 0 ? (
            <text x={x(i)} y={BOX.height - 10} text-anchor="middle">
              {p.label}
            </text>
          ) : null,
        )}
      </g>
      {props.children}
    </svg>
  );
}

export function LineChart(props: ChartProps) {
  const { x, y } = scale(props.points);
  const coords = props.points.map((p, i) => `${x(i).toFixed(1)},${y(p.value).toFixed(1)}`).join(" ");
  return (
    <Frame {...props}>
      {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <g> is never focusable (no tabindex, no links inside); Biome takes every SVG element but <svg> for an interactive one. */}
      <g class="series" aria-hidden="true">
        <polyline points={coords} />
        {props.points.map((p, i) => (
          <circle cx={x(i).toFixed(1)} cy={y(p.value).toFixed(1)} r="3" class={p.value < 0 ? "negative" : undefined} />
        ))}
      </g>
    </Frame>
  );
}

/**
 * Two series over the same points on one axis, as lines (a chart of a few hundred days would be
 * all dots): `points` solid, `second` dashed, each point's second value at the same index.
 */
export function PairChart(props: ChartProps & { second: number[] }) {
  const values = [...props.points.map((p) => p.value), ...props.second];
  const { x, y } = scale(props.points, values);
  const line = (series: number[]) => series.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  return (
    <Frame {...props} values={values}>
      {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <g> is never focusable (no tabindex, no links inside); Biome takes every SVG element but <svg> for an interactive one. */}
      <g class="series" aria-hidden="true">
        <polyline points={line(props.points.map((p) => p.value))} />
        <polyline class="second" points={line(props.second)} />
      </g>
    </Frame>
  );
}

export function BarChart(props: ChartProps) {
  const { x, y, band } = scale(props.points);
  const width = Math.max(1, band * 0.7);
  return (
    <Frame {...props}>
      {/* biome-ignore lint/a11y/noAriaHiddenOnFocusable: an SVG <g> is never focusable (no tabindex, no links inside); Biome takes every SVG element but <svg> for an interactive one. */}
      <g class="bars" aria-hidden="true">
        {props.points.map((p, i) => (
          <rect
            x={(x(i) - width / 2).toFixed(1)}
            y={y(Math.max(p.value, 0)).toFixed(1)}
            width={width.toFixed(1)}
            height={Math.abs(y(0) - y(p.value)).toFixed(1)}
          />
        ))}
      </g>
    </Frame>
  );
}

/** Every month from the first to the last, so a quiet month is a gap in the chart, not skipped. */
export function monthsBetween(first: string, last: string): string[] {
  const months: string[] = [];
  let [year, month] = first.split("-").map(Number) as [number, number];
  for (let key = first; key <= last; ) {
    months.push(key);
    month += 1;
    if (month > 12) [year, month] = [year + 1, 1];
    key = `${year}-${String(month).padStart(2, "0")}`;
  }
  return months;
}

/** Running totals of the months' amounts, exact, so the last is the sum of the months to the digit. */
export function cumulative(values: readonly Decimal[]): Decimal[] {
  let total = Decimal.ZERO;
  return values.map((v) => (total = total.plus(v)));
}
