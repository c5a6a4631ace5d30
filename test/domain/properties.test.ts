import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type Continued,
  type CreditInput,
  type HoldingChange,
  type HoldingPartial,
  type PlacedLot,
  type ResumePoint,
  type TradeInput,
  adjustMerge,
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

const books = fc.oneof(edgeBook, realisticBook);

describe("computeMetrics against the exact reference", () => {
  it("equals exact fractions rounded once, on books that stress exactness", () => {
    fc.assert(
      fc.property(edgeBook, (trades) => {
        expect(computeMetrics(trades)).toEqual(referenceMetrics(trades));
      }),
      { numRuns: BOOKS },
    );
  });

  it("equals exact fractions rounded once, on realistic books", () => {
    fc.assert(
      fc.property(realisticBook, (trades) => {
        expect(computeMetrics(trades)).toEqual(referenceMetrics(trades));
      }),
      { numRuns: BOOKS },
    );
  });

  it("equals the reference with share credits on the books' holdings, before, between and on trade dates", () => {
    fc.assert(
      fc.property(withCredits(books), dividends, ([trades, credits], cash) => {
        expect(computeMetrics(trades, credits, cash)).toEqual(referenceMetrics(trades, credits, cash));
      }),
      { numRuns: BOOKS },
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
      { numRuns: Math.ceil(BOOKS / 4) },
    );
  });

  it("does not depend on the order of the credits", () => {
    fc.assert(
      fc.property(withCredits(books), ([trades, credits]) => {
        expect(computeMetrics(trades, [...credits].reverse())).toEqual(computeMetrics(trades, credits));
      }),
      { numRuns: Math.ceil(BOOKS / 4) },
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
      { numRuns: BOOKS },
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
      { numRuns: BOOKS },
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
      { numRuns: BOOKS },
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
      { numRuns: BOOKS },
    );
  });

  it("continued day by day across share credits, or from any cut, give what the whole history gives", () => {
    fc.assert(
      fc.property(withCredits(books), fc.nat(), ([trades, credits], cut) => {
        for (const [key, own] of byHolding(trades)) expectContinuedAsWhole(own, creditsOf(credits, key), cut);
      }),
      { numRuns: BOOKS },
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
      { numRuns: BOOKS },
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
      { numRuns: Math.ceil(BOOKS / 4) },
    );
  });
});

describe("a customer's stored merge, adjusted one holding at a time", () => {
  /** A change to one holding: a trade added (to it, or to a new holding), edited or removed, or all its trades removed. */
  const change = fc.record({
    pick: fc.nat(),
    kind: fc.constantFrom("add", "edit", "remove", "clear", "new holding"),
    quantity: fc.integer({ min: 1, max: 2_147_483_647 }),
    value: fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }),
    sell: fc.boolean(),
    days: fc.integer({ min: -400, max: 3 }),
  });
  type Change = typeof change extends fc.Arbitrary<infer T> ? T : never;
  /** As the target stores it and reads it back. */
  const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
  const dateAfter = (date: string, days: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  /** Partial `a` without the monthly entries `b` has alike. */
  const apart = (a: HoldingPartial | null, b: HoldingPartial | null): HoldingPartial | null => {
    if (!a) return null;
    const differing = <T>(mine: Record<string, T>, theirs: Record<string, T> | undefined) =>
      Object.fromEntries(Object.entries(mine).filter(([month, v]) => JSON.stringify(v) !== JSON.stringify(theirs?.[month])));
    return stored({
      ...a,
      monthly_trade_counts: differing(a.monthly_trade_counts, b?.monthly_trade_counts),
      monthly_pnl: differing(a.monthly_pnl, b?.monthly_pnl),
    });
  };
  /** The holding and its trades after `c`, the `i`th change. */
  function changed(holdings: Map<string, TradeInput[]>, c: Change, i: number): [string, TradeInput[]] {
    const keys = [...holdings.keys()];
    const key = keys[c.pick % keys.length] as string;
    const own = holdings.get(key) as TradeInput[];
    const target = own[c.pick % own.length] as TradeInput;
    const edited: TradeInput = {
      ...target,
      trade_date: dateAfter(target.trade_date, c.days),
      quantity: c.quantity,
      total_value: units(c.value),
      type: c.sell ? "sell" : "buy",
    };
    const id = `eeeeeeee-0000-4000-8000-${String(i).padStart(12, "0")}`;
    switch (c.kind) {
      case "add":
        return [key, [...own, { ...edited, id }]];
      case "edit":
        return [key, own.map((t) => (t === target ? edited : t))];
      case "remove":
        return [key, own.filter((t) => t !== target)];
      case "clear":
        return [key, []];
      case "new holding":
        return [`${target.account_id}|NEW${i}`, [{ ...edited, id, stock_code: `NEW${i}`, type: "buy" }]];
    }
  }

  it("equals the merge of every holding again, or says only that merge can tell", () => {
    let asked = 0;
    let adjusted = 0;
    fc.assert(
      fc.property(books, fc.array(change, { minLength: 1, maxLength: 6 }), (trades, changes) => {
        const holdings = byHolding(trades);
        const partials = new Map([...holdings].map(([key, own]) => [key, holdingPartial(own)]));
        let merged = stored(combinePartials([...partials.values()]));
        for (const [i, c] of changes.entries()) {
          if (holdings.size === 0) return;
          const [key, next] = changed(holdings, c, i);
          const before = partials.get(key) ?? null;
          const after = next.length ? holdingPartial(next) : null;
          if (after) {
            holdings.set(key, next);
            partials.set(key, after);
          } else {
            holdings.delete(key);
            partials.delete(key);
          }
          const whole = combinePartials([...partials.values()]);
          const adjustment = adjustMerge(merged, [[stored(before), stored(after)]]);
          // As the sync reads a change: without the months it left as they were.
          expect(adjustMerge(merged, [[apart(before, after), apart(after, before)]])).toEqual(adjustment);
          asked++;
          if (adjustment) {
            adjusted++;
            expect(adjustment).toEqual(whole);
          }
          merged = stored(adjustment ?? whole);
          expect(mergePartials([merged])).toEqual(mergePartials([...partials.values()]));
        }
      }),
      { numRuns: BOOKS },
    );
    // Most changes adjust: only a change to what one holding alone decided needs the others.
    expect(adjusted).toBeGreaterThan(asked / 2);
  });

  it("always adjusts for a day of new trades after the latest, taken in holding by holding", () => {
    const day = fc.array(change, { minLength: 1, maxLength: 8 });
    fc.assert(
      fc.property(books, day, (trades, changes) => {
        const holdings = byHolding(trades);
        if (holdings.size === 0) return;
        const partials = new Map([...holdings].map(([key, own]) => [key, holdingPartial(own)]));
        const latest = trades
          .map((t) => t.trade_date)
          .sort()
          .at(-1) as string;
        const keys = [...holdings.keys()];
        const added = new Map<string, TradeInput[]>();
        for (const [i, c] of changes.entries()) {
          const key = keys[c.pick % keys.length] as string;
          const trade: TradeInput = {
            ...(holdings.get(key)?.[0] as TradeInput),
            id: `dddddddd-0000-4000-8000-${String(i).padStart(12, "0")}`,
            trade_date: dateAfter(latest, 1),
            quantity: c.quantity,
            total_value: units(c.value),
            type: c.sell ? "sell" : "buy",
          };
          added.set(key, [...(added.get(key) ?? []), trade]);
        }
        const start = stored(combinePartials([...partials.values()]));
        let merged = start;
        const taken: HoldingChange[] = [];
        for (const [key, trades] of added) {
          const before = partials.get(key) as HoldingPartial;
          const after = holdingPartial([...(holdings.get(key) as TradeInput[]), ...trades]);
          partials.set(key, after);
          taken.push([stored(before), stored(after)]);
          const adjustment = adjustMerge(merged, [[stored(before), stored(after)]]);
          expect(adjustment).toEqual(combinePartials([...partials.values()]));
          merged = adjustment as HoldingPartial;
        }
        // As the sync takes them: all the day's changes at once.
        expect(adjustMerge(start, taken)).toEqual(merged);
      }),
      { numRuns: BOOKS },
    );
  });

  // Found by the property above: a holding's own new deal pushes its oldest out of the top five.
  it("adjusts when a holding's new deal outranks one of its own in the merge's top list", () => {
    const { buy, sell } = tradeFactory();
    const book = [buy("2023-01-01", 5, "9999999999999999.9950")];
    for (let day = 2; day <= 6; day++) book.push(sell(`2023-01-0${day}`, 1, "0.0000"));
    const day = [buy("2023-01-07", 1, "1999999999999999.9990"), sell("2023-01-07", 1, "0.0000")];
    const before = holdingPartial(book);
    const after = holdingPartial([...book, ...day]);
    expect(before.top_losses.map((d) => d.sell_id)).toHaveLength(5);
    expect(after.top_losses[0]?.sell_id).toBe(day[1]!.id);
    expect(adjustMerge(combinePartials([before]), [[before, after]])).toEqual(combinePartials([after]));
  });
});
