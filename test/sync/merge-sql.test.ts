/**
 * The merge rules' two forms agree: PARTIAL_MERGE as the domain runs it (combinePartials,
 * src/domain/partial.ts) and as the sync compiles it to SQL (src/sync/merge-sql.ts), on the same
 * random partials, in the target database of the backend under test.
 */
import { sql } from "drizzle-orm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CreditInput, combinePartials, type HoldingPartial, holdingPartial, PARTIAL_FORMAT } from "../../src/domain";
import { render } from "../../src/sync/database";
import { mergedPartial } from "../../src/sync/merge-sql";
import { monthsOf, withoutMonths } from "../../src/sync/months";
import { edgeBook, realisticBook, withCredits } from "../domain/books";
import { byHolding } from "../domain/trades";
import type { Sql } from "../../src/db/client";
import { freshDatabases } from "../support/databases";
import { runs } from "../support/runs";

/** Partials as the target stores them: JSON, as `holding_metrics.partial` holds them. */
const stored = (partials: HoldingPartial[]): HoldingPartial[] => JSON.parse(JSON.stringify(partials));

/** Each holding's partial, over one to three random books (so more holdings than one book has). */
const partialsOf = fc.array(withCredits(fc.oneof(edgeBook, realisticBook)), { minLength: 1, maxLength: 3 }).map((books) =>
  stored(
    books.flatMap(([trades, credits]) => {
      const creditsOf = byHolding<CreditInput>(credits);
      return [...byHolding(trades)].map(([key, own]) => holdingPartial(own, creditsOf.get(key) ?? []));
    }),
  ),
);

/**
 * The SQL merge of `partials`, run in `target`: one partial, as combinePartials takes it. Each
 * goes in as the sync stores it: the partial without its months, and its month rows.
 */
async function mergeInSql(target: Sql, partials: HoldingPartial[]): Promise<HoldingPartial> {
  const months = partials.flatMap((p, i) => monthsOf(crypto.randomUUID(), `H${i}`, p));
  const merge = sql`select ${mergedPartial(
    sql`select value as p from jsonb_array_elements(${JSON.stringify(partials.map(withoutMonths))}::jsonb)`,
    sql`select * from json_to_recordset(${JSON.stringify(months)}::json) as r(month text, trades int, pnl numeric, pnl_inexact int)`,
  )} as sum`;
  const { sql: text, params } = render(merge);
  const [row] = await target.query(text, params);
  return JSON.parse(row!.sum as string) as HoldingPartial;
}

describe("the merge rules in SQL", () => {
  it("add up random partials as the domain does", { timeout: 120_000 }, async () => {
    const { target } = await freshDatabases();
    await fc.assert(
      fc.asyncProperty(partialsOf, async (partials) => {
        const sum = await mergeInSql(target, partials);
        expect(sum.format).toBe(PARTIAL_FORMAT);
        expect(combinePartials([sum])).toEqual(combinePartials(partials));
      }),
      { numRuns: runs(60) },
    );
  });

  it("add up no partial as the domain does, and tell a partial of another format", async () => {
    const { target } = await freshDatabases();
    expect(combinePartials([await mergeInSql(target, [])])).toEqual(combinePartials([]));

    const [one, two] = fc.sample(
      partialsOf.filter((p) => p.length >= 2),
      { numRuns: 1, seed: 7 },
    )[0]!;
    const older = { ...two!, format: PARTIAL_FORMAT - 1 } as unknown as HoldingPartial;
    expect((await mergeInSql(target, [one!, older])).format).toBe(-1);
  });
});
