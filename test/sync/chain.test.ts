/**
 * Runs that chain (docs/sync.md): a run that stops at its budget hands on through the continuation
 * queue, and the consumer's run continues at once, until the backlog is worked off with no
 * operator and no cron tick. One run at a time still; nothing lost when a run cannot go on.
 */
import { describe, expect, it } from "vitest";
import { getConfig } from "../../src/env";
import { STREAMS } from "../../src/sync/streams";
import { syncAndInvalidate } from "../../src/sync/worker";
import { Book } from "../support/book";
import { setFault } from "../support/databases";
import { countRows, deliver, expectInSync, recordingQueue, withSource } from "./helpers";

const HEAVY = 180_000;

function backlog(): Book {
  const book = new Book();
  const { account } = book.simpleCustomer();
  for (let d = 1; d <= 9; d++)
    book.trade({ account_id: account.id, trade_date: `2024-01-0${d}`, type: "buy", quantity: d, price: "1000" });
  return book;
}

describe("runs that chain", () => {
  it(
    "work off a backlog run after run through the queue, with no operator",
    async () => {
      const book = backlog();
      const dbs = await withSource(book);
      const { sent, queue } = recordingQueue();
      const env = { ...dbs.env, SYNC_QUEUE: queue };
      // Each run stops after a step per stream, enough to read them all, and two more.
      const limits = { pageRows: 2, stopAfterSteps: STREAMS.length + 2 };

      const first = await syncAndInvalidate(getConfig(env), { trigger: "manual", mode: "delta", limits, queue });
      expect(first.complete).toBe(false);
      expect(sent).toEqual([{ after_run: first.run_id }]);

      let synced = first.synced_rows;
      let runs = 1;
      while (sent.length > 0 && runs < 30) {
        expect(await deliver(env, sent.shift()!, limits)).toEqual(["ack"]);
        runs++;
      }
      expect(sent).toEqual([]);
      const history = await dbs.target`select trigger, outcome from sync_runs order by started_at`;
      expect(history).toHaveLength(runs);
      expect(history.at(-1)).toEqual({ trigger: "chain", outcome: "complete" });
      expect(history.slice(1).every((r) => r.trigger === "chain")).toBe(true);
      for (const run of await dbs.target`select synced_rows from sync_runs where trigger = 'chain'`)
        synced += run.synced_rows as number;
      // Every row written once over the chain.
      expect(synced).toBe(countRows(book));
      await expectInSync(dbs);
    },
    HEAVY,
  );

  it(
    "makes a continuation wait out a lease another run holds, and leaves the data alone",
    async () => {
      const dbs = await withSource(backlog());
      await dbs.target`insert into sync_lease values ('sync', ${crypto.randomUUID()}, now() + interval '45 seconds')`;
      const outcomes = await deliver(dbs.env, { after_run: crypto.randomUUID() }, {});
      expect(outcomes).toHaveLength(1);
      const [outcome] = outcomes as [{ retryAfter: number }];
      expect(outcome.retryAfter).toBeGreaterThanOrEqual(40);
      expect(outcome.retryAfter).toBeLessThanOrEqual(45);
      expect(await dbs.target`select id from transactions`).toEqual([]);
    },
    HEAVY,
  );

  it(
    "retries a continuation whose run failed, and the retry catches up",
    async () => {
      const book = backlog();
      const dbs = await withSource(book);
      await setFault(dbs.sourceName, "error500");
      try {
        expect(await deliver(dbs.env, { after_run: crypto.randomUUID() }, {})).toEqual([{ retryAfter: 30 }]);
      } finally {
        await setFault(dbs.sourceName, "off");
      }
      expect(await deliver(dbs.env, { after_run: crypto.randomUUID() }, {})).toEqual(["ack"]);
      await expectInSync(dbs);
    },
    HEAVY,
  );
});
