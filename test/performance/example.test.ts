/**
 * The worked example of docs/performance.md, end to end: a buy, a cash dividend on its ex-date
 * paid weeks later, and a sell, over four market days, synced and read back. Its expected answer
 * has one home, the example of the Performance schema (src/schemas/performance.ts) that the
 * OpenAPI document shows: the figures were worked out by hand with exact fractions (the day
 * returns and their product) and, for the money-weighted return, a 300-step bisection at 80
 * digits: 0.06396952128... The endpoint must answer exactly it, so the document's example is true.
 */
import { describe, expect, it } from "vitest";
import { getJson } from "../support/worker";
import { synced, withSource } from "../sync/helpers";
import { exampleBook } from "./example-book";

describe("performance: the worked example", () => {
  it("answers every figure of the whole history exactly, as the OpenAPI document's example has them", async () => {
    const { book, slug } = exampleBook();
    const dbs = await withSource(book);
    await synced(dbs.env);
    const document = (await getJson(dbs.env, "/api/openapi.json")).body;
    const example = document.components.schemas.Performance.example;
    // The example is docs/performance.md's: P&L 6,240,000 - 5,694,270 over max, over five points.
    expect([example?.range, example?.pnl, example?.points?.length]).toEqual(["max", 545730, 5]);
    const { status, body } = await getJson(dbs.env, `/api/performance/${slug}`);
    expect(status).toBe(200);
    expect(body).toEqual({ success: true, data: example });
  });
});
