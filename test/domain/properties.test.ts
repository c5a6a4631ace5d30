import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Continued,
  type CreditInput,
  type HoldingPartial,
  type PlacedLot,
  type ResumePoint,
  type TradeInput,
  combinePartials,
  computeMetrics,
  continuePartial,
  holdingPartial,
  lotsReached,
  mergePartials,
  soldShares,
  sumDividends,
} from "../../src/domain";
import { BOOKS, dividends, edgeBook, realisticBook, units, withCredits } from "./books";
import { referenceMetrics } from "./reference";
import { byHolding, tradeFactory } from "./trades";
import { runs } from "../support/runs";

const books = fc.oneof(edgeBook, realisticBook);

describe("computeMetrics against the exact reference", () => {
  it("equals exact fractions rounded once, on books that stress exactness", () => {
    fc.assert(
      fc.property(edgeBook, (trades) => {
        expect(computeMetrics(trades)).toEqual(referenceMetrics(trades));
      }),
      { numRuns: runs(BOOKS) },
    );
  });

  it("equals exact fractions rounded once, on realistic books", () => {
    fc.assert(
      fc.property(realisticBook, (trades) => {
        expect(computeMetrics(trades)).toEqual(referenceMetrics(trades));
      }),
      { numRuns: runs(BOOKS) },
    );
  });

  it("equals the reference with share credits on the books' holdings, before, between and on trade dates", () => {
    fc.assert(
      fc.property(withCredits(books), dividends, ([trades, credits], cash) => {
        expect(computeMetrics(trades, credits, cash)).toEqual(referenceMetrics(trades, credits, cash));
      }),
      { numRuns: runs(BOOKS) },
    );
  });

  it("does not depend on the order of its input", () => {
    const shuffled = books.chain((trades) =>
      fc.tuple(fc.constant(trades), fc.shuffledSubarray(trades, { minLength: trades.length })),
    );
    fc.assert(
      fc.property(shuffled, ([trades, reordered]) => {
        expect(computeMetrics(reordered)).toEqual(computeMetrics(trades));
      }),
      { numRuns: runs(Math.ceil(BOOKS / 4)) },
    );
  });

  it("does not depend on the order of the credits", () => {
    fc.assert(
      fc.property(withCredits(books), ([trades, credits]) => {
        expect(computeMetrics(trades, [...credits].reverse())).toEqual(computeMetrics(trades, credits));
      }),
      { numRuns: runs(Math.ceil(BOOKS / 4)) },
    );
  });
});

describe("holding partials", () => {
  /** A change to one holding: a trade added, edited or removed. */
  const change = fc.record({
    pick: fc.nat(),
    kind: fc.constantFrom("add", "edit", "remove"),
    quantity: fc.integer({ min: 1, max: 2_147_483_647 }),
    value: fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }),
    sell: fc.boolean(),
  });

  it("merge to computeMetrics of the whole book, or to null, after changing one holding", () => {
    // Undecided merges (null) per kind of book.
    const undecided = { edge: { nulls: 0, merges: 0 }, realistic: { nulls: 0, merges: 0 } };
    const tagged = fc.oneof(
      edgeBook.map((trades) => ({ kind: "edge" as const, trades })),
      realisticBook.map((trades) => ({ kind: "realistic" as const, trades })),
    );
    fc.assert(
      fc.property(tagged, change, ({ kind, trades }, c) => {
        const count = (merged: unknown) => {
          undecided[kind].merges++;
          if (merged === null) undecided[kind].nulls++;
          return merged !== null;
        };
        const holdings = byHolding(trades);
        const partials = new Map<string, HoldingPartial>([...holdings].map(([key, ts]) => [key, holdingPartial(ts)]));
        const before = mergePartials([...partials.values()]);
        if (count(before)) expect(before).toEqual(computeMetrics(trades));

        const keys = [...holdings.keys()];
        const key = keys[c.pick % Math.max(keys.length, 1)];
        if (key === undefined) return;
        const own = holdings.get(key) as TradeInput[];
        const target = own[c.pick % own.length] as TradeInput;
        const edited = {
          ...target,
          quantity: c.quantity,
          total_value: units(c.value),
          type: c.sell ? ("sell" as const) : ("buy" as const),
        };
        const next =
          c.kind === "remove"
            ? own.filter((t) => t !== target)
            : c.kind === "edit"
              ? own.map((t) => (t === target ? edited : t))
              : [...own, { ...edited, id: `ffffffff-0000-4000-8000-${String(c.pick % 1e12).padStart(12, "0")}` }];
        holdings.set(key, next);
        partials.set(key, holdingPartial(next));
        const after = mergePartials([...partials.values()]);
        if (count(after)) expect(after).toEqual(computeMetrics([...holdings.values()].flat()));
      }),
      { numRuns: runs(BOOKS) },
    );
    // A merge is undecided when a figure lies within the fixed scale's error bound of a rounding
    // boundary: an exact tie within ~10^-20 đồng, or an average cost left inexact by many sells.
    // Realistic books never get there. The edge books are built to (ties, powers of two, lots at
    // the limits): 5.5% to 8.5% of their merges over 16 seeds; far more would mean the fast path
    // had stopped deciding.
    expect(undecided.realistic.nulls).toBe(0);
    expect(undecided.edge.nulls).toBeLessThan(undecided.edge.merges * 0.2);
  });

  it("never leave a realistic book undecided", () => {
    fc.assert(
      fc.property(realisticBook, (trades) => {
        const partials = [...byHolding(trades).values()].map((own) => holdingPartial(own));
        expect(mergePartials(partials)).toEqual(computeMetrics(trades));
      }),
      { numRuns: runs(BOOKS) },
    );
  });

  /**
   * A holding as the target stores it, through JSON: the point, and its open lots as rows (those
   * kept from before, unless consumed passed their end, and those just opened).
   */
  interface Stored {
    point: Omit<Continued, "opened">;
    lots: PlacedLot[];
  }
  const store = (before: Stored | null, next: Continued | null): Stored | null => {
    if (!next) return null;
    const { opened, relaid, ...point } = next;
    // A credit laid every open lot out again: the lots stored before are replaced.
    const kept = relaid ? [] : (before?.lots ?? []).filter((l) => l.at + l.lot[0] > point.position.consumed);
    return JSON.parse(JSON.stringify({ point, lots: [...kept, ...opened] })) as Stored;
  };
  /** What the sync reads to continue with `trades`: the point and the lots their sells reach, or all lots. */
  const resume = (s: Stored | null, trades: readonly TradeInput[], allLots = false): ResumePoint | null =>
    s && {
      ...s.point,
      head: allLots ? s.lots : s.lots.filter(lotsReached(s.point.position, soldShares(trades))),
    };
  const datedAfter = (trades: readonly TradeInput[], s: Stored | null) =>
    s ? trades.filter((t) => t.trade_date > s.point.through) : trades;

  /**
   * One holding's trades and credits, continued day by day and continued from the cut at `cut`,
   * store what the whole history stores. As the sync would take them: a day's trades and credits,
   * every lot when a credit comes (and at the cut, every lot when `allLotsAtCut`); with nothing
   * stored yet (credits before the first trade), everything up to the day. Both properties below
   * check this, one without credits.
   */
  const expectContinuedAsWhole = (
    own: readonly TradeInput[],
    mine: readonly CreditInput[],
    cut: number,
    allLotsAtCut = false,
  ) => {
    const whole = store(null, continuePartial(null, own, mine));
    expect(whole?.point.partial).toEqual(holdingPartial(own, mine));

    const dates = [...new Set([...own.map((t) => t.trade_date), ...mine.map((c) => c.ex_date)])].sort();
    let daily: Stored | null = null;
    for (const date of dates) {
      const day = own.filter((t) => t.trade_date === date);
      const dayCredits = mine.filter((c) => (daily === null ? c.ex_date <= date : c.ex_date === date));
      daily = store(daily, continuePartial(resume(daily, day, dayCredits.length > 0), day, dayCredits));
    }
    expect(daily).toEqual(whole);

    const until = dates[cut % dates.length] as string;
    const first = store(
      null,
      continuePartial(
        null,
        own.filter((t) => t.trade_date <= until),
        mine.filter((c) => c.ex_date <= until),
      ),
    );
    const later = mine.filter((c) => first === null || c.ex_date > first.point.through);
    const rest = datedAfter(own, first);
    const allLots = allLotsAtCut || later.length > 0;
    expect(store(first, continuePartial(resume(first, rest, allLots), rest, first ? later : mine))).toEqual(whole);
  };

  it("continued day by day, or from any cut, give what the whole history gives, reading only the lots the sells reach", () => {
    fc.assert(
      fc.property(books, fc.nat(), fc.boolean(), (trades, cut, allLots) => {
        // No credits: each day reads only the lots its sells reach; the cut, those or every lot.
        for (const own of byHolding(trades).values()) expectContinuedAsWhole(own, [], cut, allLots);
      }),
      { numRuns: runs(BOOKS) },
    );
  });

  /** Credits grouped like trades: by holding. */
  const creditsOf = (credits: readonly CreditInput[], key: string) => byHolding(credits).get(key) ?? [];

  it("with share credits and cash dividends, merge to computeMetrics of the whole book, or to null", () => {
    fc.assert(
      fc.property(withCredits(books), dividends, ([trades, credits], cash) => {
        const partials = [...byHolding(trades)].map(([key, own]) => holdingPartial(own, creditsOf(credits, key)));
        const received = sumDividends(cash);
        const merged = mergePartials(partials, received);
        if (merged !== null) expect(merged).toEqual(computeMetrics(trades, credits, cash));
        expect(mergePartials([combinePartials(partials)], received)).toEqual(merged);
      }),
      { numRuns: runs(BOOKS) },
    );
  });

  it("continued day by day across share credits, or from any cut, give what the whole history gives", () => {
    fc.assert(
      fc.property(withCredits(books), fc.nat(), ([trades, credits], cut) => {
        for (const [key, own] of byHolding(trades)) expectContinuedAsWhole(own, creditsOf(credits, key), cut);
      }),
      { numRuns: runs(BOOKS) },
    );
  });

  it("refuse to continue across a credit without every open lot, or from before it", () => {
    const { buy } = tradeFactory();
    const from = store(null, continuePartial(null, [buy("2024-01-02", 10, "1000.0000"), buy("2024-01-03", 10, "1000.0000")]))!;
    const credit: CreditInput = { id: "c1", account_id: "a", stock_code: "X", ex_date: "2024-01-05", quantity: 2 };
    expect(() => continuePartial({ ...from.point, head: from.lots.slice(0, 1) }, [], [credit])).toThrow(RangeError);
    expect(() => continuePartial({ ...from.point, head: from.lots }, [], [{ ...credit, ex_date: "2024-01-03" }])).toThrow(
      RangeError,
    );
    const after = continuePartial({ ...from.point, head: from.lots }, [], [credit]);
    expect(after?.through).toBe("2024-01-05");
    expect(after?.opened.map((l) => l.lot[0])).toEqual([11, 11]);
  });

  it("refuse to continue from lots that end before the new sells' reach", () => {
    const buy = (id: number, trade_date: string, quantity: number) => ({
      id: `00000000-0000-4000-8000-${String(id).padStart(12, "0")}`,
      account_id: "a",
      stock_code: "FPT",
      trade_date,
      type: "buy" as const,
      quantity,
      total_value: String(quantity * 1000),
      fee: "0",
      personal_tax: "0",
    });
    const from = store(null, continuePartial(null, [buy(1, "2024-01-02", 10), buy(2, "2024-01-03", 10)]))!;
    const sell = { ...buy(3, "2024-01-04", 15), type: "sell" as const };
    expect(() => continuePartial({ ...from.point, head: from.lots.slice(0, 1) }, [sell])).toThrow(RangeError);
    expect(continuePartial(resume(from, [sell]), [sell])?.position).toEqual({ consumed: 15, opened: 20 });
  });

  it("continued with trades appended after the point give what the whole history gives", () => {
    const appended = fc.array(fc.record({ days: fc.integer({ min: 1, max: 3 }), change }), { minLength: 1, maxLength: 4 });
    fc.assert(
      fc.property(books, appended, (trades, added) => {
        for (const own of byHolding(trades).values()) {
          const from = store(null, continuePartial(null, own));
          if (!from) continue;
          const template = own[0] as TradeInput;
          const later = added.map(({ days, change: c }, i) => ({
            ...template,
            id: `ffffffff-0000-4000-8000-${String(i).padStart(12, "0")}`,
            trade_date: new Date(Date.parse(`${from.point.through}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10),
            quantity: c.quantity,
            total_value: units(c.value),
            type: c.sell ? ("sell" as const) : ("buy" as const),
          }));
          expect(continuePartial(resume(from, later), later)?.partial).toEqual(holdingPartial([...own, ...later]));
        }
      }),
      { numRuns: runs(BOOKS) },
    );
  });

  it("survive JSON.stringify and JSON.parse", () => {
    fc.assert(
      fc.property(books, (trades) => {
        const partials = [...byHolding(trades).values()].map((own) => holdingPartial(own));
        const stored = JSON.parse(JSON.stringify(partials)) as HoldingPartial[];
        expect(stored).toEqual(partials);
        expect(mergePartials(stored)).toEqual(mergePartials(partials));
      }),
      { numRuns: runs(Math.ceil(BOOKS / 4)) },
    );
  });
});
