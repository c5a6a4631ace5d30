/**
 * The answer of GET /api/performance/{slug}: how the portfolio has done over a period (the rules
 * of every figure: docs/performance.md, computed in src/domain/performance/). Money is exact and
 * rounded once to 2 places, rates are fractions rounded once to 4 (0.0123 is 1.23%).
 */
import { z } from "@hono/zod-openapi";
import { exactNumber, money } from "./decimal";
import { PERFORMANCE_INTERVALS, PERFORMANCE_RANGES } from "./queries";

const date = z.iso.date().openapi({ example: "2024-03-15" });
const rate = (example: number, description: string) => exactNumber().openapi({ example, description });
const count = (description: string) => z.number().int().min(0).openapi({ format: "int64", description });

export const MWR_STATUSES = ["ok", "no_root", "no_period"] as const;

export const PerformancePoint = z
  .strictObject({
    date,
    value: money(1520000000).openapi({ description: "What the positions were worth at that day's closes" }),
    net_invested: money(1400000000).openapi({
      description: "`start_value` + money put in - money taken out (sells, cash dividends) up to that day",
    }),
    pnl: money(120000000).openapi({ description: "`value` - `net_invested`: the gain since the period's start" }),
    twr: rate(0.0857, "Time-weighted return since the period's start"),
    benchmark: rate(0.0312, "The benchmark's price return since the period's start; null without its start close").nullable(),
  })
  .openapi("PerformancePoint", { description: "One point of the chart; its figures never depend on `interval`" });

export const PerformancePosition = z
  .strictObject({
    stock_code: z.string().openapi({ example: "FPT" }),
    shares: count("Shares held at e, all accounts"),
    start_value: money(0).openapi({ description: "What the code's positions were worth at s" }),
    end_value: money(6240000).openapi({ description: "What they were worth at e (at cost while the code has no close)" }),
    invested: money(10000150).openapi({ description: "Money put into the code's buys (price, fee and tax)" }),
    withdrawn: money(4115880).openapi({ description: "Money its sells brought back (after fee and tax)" }),
    dividends: money(190000).openapi({ description: "Its cash dividends, net of tax, counted on their ex-date" }),
    pnl: money(545730).openapi({
      description: "`end_value` - (`start_value` + `invested` - `withdrawn` - `dividends`): the code's gain over the period",
    }),
    twr: rate(0.0589, "The code's time-weighted return over the period"),
    weight: rate(1, "`end_value` / the portfolio's value at e; null when that is 0").nullable(),
  })
  .openapi("PerformancePosition", {
    description:
      "One stock code over the period, all accounts together: the exact parts of the codes add up to the period's figures (the rounded ones may differ by cents)",
  });

export const Drawdown = z
  .strictObject({
    max: rate(
      0.0123,
      "The worst fall from a peak of the time-weighted growth, as a fraction; past 1 when a day lost more than all",
    ),
    peak_date: date
      .nullable()
      .openapi({ description: "The peak before the worst fall (s or a point); null when there is no fall" }),
    trough_date: date
      .nullable()
      .openapi({ description: "Where the worst fall bottomed out (its earliest point); null when there is no fall" }),
  })
  .openapi("Drawdown", {
    description: "The maximum drawdown over every point of the period, whatever `interval` the chart uses",
  });

export const Performance = z
  .strictObject({
    range: z
      .enum(PERFORMANCE_RANGES)
      .nullable()
      .openapi({ description: "The effective range: `max` when neither `range` nor `from` is given, null with `from`" }),
    from: date.nullable().openapi({ description: "`from` as requested, or null" }),
    to: date.nullable().openapi({ description: "`to` as requested, or null" }),
    interval: z.enum(PERFORMANCE_INTERVALS).openapi({ description: "The effective spacing of `points`" }),
    start_date: date.nullable().openapi({ description: "s: the period is (s, e], figures count what happened after s" }),
    end_date: date.nullable().openapi({ description: "e: the latest point on or before `to`" }),
    as_of: date
      .nullable()
      .openapi({ description: "The customer's last point: the later of the last market day and the last trade" }),
    clamped: z
      .boolean()
      .openapi({ description: "True when the period asked for began before the first trade and was cut there" }),
    start_value: money(1400000000).openapi({ description: "What the positions were worth at s" }),
    end_value: money(1520000000).openapi({ description: "What the positions were worth at e" }),
    invested: money(200000000).openapi({ description: "Money put into buys (price, fee and tax)" }),
    withdrawn: money(150000000).openapi({ description: "Money the sells brought back (after fee and tax)" }),
    dividends: money(5000000).openapi({ description: "Cash dividends, net of tax, counted on their ex-date" }),
    net_invested: money(1445000000).openapi({ description: "`start_value` + `invested` - `withdrawn` - `dividends`" }),
    pnl: money(75000000).openapi({ description: "`end_value` - `net_invested`: the gain over the period, dividends included" }),
    twr: rate(0.0531, "Time-weighted return: the product of the day returns, minus 1; independent of when money came in"),
    mwr: z
      .strictObject({
        rate: rate(
          0.0498,
          "The money-weighted return (internal rate of return over the period); null unless `status` is `ok`",
        ).nullable(),
        status: z.enum(MWR_STATUSES).openapi({
          description:
            "`ok`; `no_root`: no rate makes the flows balance; `no_period`: no time passed for any money (one day, or every flow on the last day)",
        }),
      })
      .openapi({ description: "Money-weighted return over the period, not annualized" }),
    annualized: z
      .strictObject({
        twr: rate(0.0531, "`twr` per year; null when 1 + `twr` <= 0").nullable(),
        mwr: rate(0.0498, "`mwr.rate` per year; null when it is").nullable(),
      })
      .nullable()
      .openapi({ description: "Only for periods of 365 days or more, else null" }),
    benchmark: z
      .strictObject({
        code: z.string().openapi({ example: "VNINDEX" }),
        start_close: exactNumber()
          .nullable()
          .openapi({ example: 1180.5, description: "The benchmark's close at s (the latest on or before)" }),
        end_close: exactNumber()
          .nullable()
          .openapi({ example: 1245.3, description: "The benchmark's close at e (the latest on or before)" }),
        return: rate(0.0549, "`end_close` / `start_close` - 1: a price index, dividends not included").nullable(),
      })
      .openapi({ description: "The market over the same period" }),
    unpriced_value: money(0).openapi({ description: "Positions with no close yet, valued at their cost" }),
    unpriced_positions: count("Positions with shares and no close at e"),
    dividends_receivable: money(0).openapi({ description: "Cash dividends past their ex-date on e and not yet paid" }),
    holdings_mismatch: count(
      "(account, stock) pairs whose shares today, their holdings rows summed, the trade ledger does not explain (0 when it does)",
    ),
    drawdown: Drawdown,
    positions: z.array(PerformancePosition).openapi({
      description:
        "Per stock code: every code with a ledger event in the period or shares at s or at e; by `end_value` descending, then `pnl` descending, then `stock_code`",
    }),
    points: z.array(PerformancePoint).openapi({ description: "The chart, oldest first; the first at s, the last at e" }),
  })
  .openapi("Performance", {
    // The worked example of docs/performance.md: a buy, a cash dividend, a sell over four market days.
    example: {
      range: "max",
      from: null,
      to: null,
      interval: "day",
      start_date: "2024-06-02",
      end_date: "2024-06-06",
      as_of: "2024-06-06",
      clamped: false,
      start_value: 0,
      end_value: 6240000,
      invested: 10000150,
      withdrawn: 4115880,
      dividends: 190000,
      net_invested: 5694270,
      pnl: 545730,
      twr: 0.0589,
      mwr: { rate: 0.064, status: "ok" },
      annualized: null,
      benchmark: { code: "VNINDEX", start_close: 1260, end_close: 1262.25, return: 0.0018 },
      unpriced_value: 0,
      unpriced_positions: 0,
      dividends_receivable: 190000,
      holdings_mismatch: 0,
      drawdown: { max: 0, peak_date: null, trough_date: null },
      positions: [
        {
          stock_code: "FPT",
          shares: 60,
          start_value: 0,
          end_value: 6240000,
          invested: 10000150,
          withdrawn: 4115880,
          dividends: 190000,
          pnl: 545730,
          twr: 0.0589,
          weight: 1,
        },
      ],
      points: [
        { date: "2024-06-02", value: 0, net_invested: 0, pnl: 0, twr: 0, benchmark: 0 },
        { date: "2024-06-03", value: 10100000, net_invested: 10000150, pnl: 99850, twr: 0.01, benchmark: 0 },
        { date: "2024-06-04", value: 10200000, net_invested: 9810150, pnl: 389850, twr: 0.039, benchmark: -0.0036 },
        { date: "2024-06-05", value: 6180000, net_invested: 5694270, pnl: 485730, twr: 0.0488, benchmark: 0.0079 },
        { date: "2024-06-06", value: 6240000, net_invested: 5694270, pnl: 545730, twr: 0.0589, benchmark: 0.0018 },
      ],
    },
    description:
      "How the portfolio of shares did over (s, e]: its value, the money put in and taken out, the gain, the time- and money-weighted returns and the benchmark. No cash balance or margin: the shares in the ledger only",
  });

export type Performance = z.infer<typeof Performance>;
export type PerformancePoint = z.infer<typeof PerformancePoint>;
export type PerformancePosition = z.infer<typeof PerformancePosition>;
