/**
 * "Today" only when it is: the top card calls its session today only when the session's date is
 * today in Vietnam (UTC+7), else the latest session with its date; and a cached page is never
 * served past the next midnight there, so the word cannot go stale. A fixed clock (only Date is
 * faked) over the worked example of docs/performance.md, whose last session is 2024-06-06.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { synced, withSource } from "../sync/helpers";
import { exampleBook } from "../performance/example-book";
import { CacheClient } from "../cache/helpers";
import { getPage, section } from "./html";

async function syncedExample(overrides = {}) {
  const { book, slug } = exampleBook();
  const dbs = await withSource(book, overrides);
  await synced(dbs.env);
  return { dbs, slug };
}

/** The clock at this instant, Date alone: timers stay real, so the database calls still run. */
const at = (iso: string) => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date(iso));
};

afterEach(() => {
  vi.useRealTimers();
});

const heading = (html: string) =>
  /<h2 id="today">([\s\S]*?)<\/h2>/
    .exec(section(html, "today"))![1]!
    .replace(/<[^>]+>/g, "")
    .trim();

/** What a person reads: the text, without tags (ids and classes are named "today" too). */
const text = (html: string) => html.replace(/<style>[\s\S]*?<\/style>/, "").replace(/<[^>]+>/g, " ");

describe("the page's top card, by the clock in Vietnam", () => {
  it("says today on the session's own day in Vietnam, from its first second to its last", async () => {
    const { dbs, slug } = await syncedExample();
    // 2024-06-06 00:00 and 23:59:59 in Vietnam are 2024-06-05T17:00Z and 2024-06-06T16:59:59Z.
    for (const instant of ["2024-06-05T17:00:00Z", "2024-06-06T09:30:00Z", "2024-06-06T16:59:59.999Z"]) {
      at(instant);
      const vi_ = (await getPage(dbs.env, `/c/${slug}`)).html;
      const en = (await getPage(dbs.env, `/c/${slug}?lang=en`)).html;
      expect({ instant, vi: heading(vi_), en: heading(en) }).toEqual({ instant, vi: "Hôm nay", en: "Today" });
      expect(vi_).toContain('data-session="today"');
      expect(vi_).toContain("<dt>Thay đổi hôm nay</dt>");
      expect(en).toContain("<dt>Today&#39;s change</dt>");
    }
  });

  it("says the latest session and its date on any other day, before it too", async () => {
    const { dbs, slug } = await syncedExample();
    // The next day from midnight in Vietnam (still 2024-06-06 in UTC), a weekend later, and the day before.
    for (const instant of ["2024-06-06T17:00:00Z", "2024-06-09T03:00:00Z", "2024-06-05T16:59:59Z"]) {
      at(instant);
      const vi_ = (await getPage(dbs.env, `/c/${slug}`)).html;
      const en = (await getPage(dbs.env, `/c/${slug}?lang=en`)).html;
      expect({ instant, vi: heading(vi_), en: heading(en) }).toEqual({
        instant,
        vi: "Phiên gần nhất: 06/06/2024",
        en: "Latest session: 6 Jun 2024",
      });
      expect(vi_).toContain('data-session="latest"');
      expect(text(vi_)).not.toMatch(/hôm nay/i);
      expect(text(en)).not.toMatch(/today/i);
      expect(vi_).toContain("<dt>Thay đổi trong phiên</dt>");
    }
  });

  it("is never served from the cache past the next midnight in Vietnam, whatever the TTL", async () => {
    const { dbs, slug } = await syncedExample({ CACHE_TTL_SECONDS: "3600" });
    const client = new CacheClient(dbs);
    const path = `/c/${slug}`;
    // 23:58 in Vietnam on the session's day: fresh for two minutes, not for the TTL's hour.
    at("2024-06-06T16:58:00Z");
    const miss = await client.counted(path);
    expect(miss).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(heading(miss.text)).toBe("Hôm nay");
    expect(miss.headers.get("Cache-Control")).toBe("private, max-age=120");

    at("2024-06-06T16:59:30Z");
    const hit = await client.counted(path);
    expect(hit).toMatchObject({ cache: "HIT", trips: 0 });
    expect(hit.headers.get("Cache-Control")).toBe("private, max-age=30");

    // Midnight in Vietnam: the entry is made again, and says the latest session.
    at("2024-06-06T17:00:00Z");
    const after = await client.counted(path);
    expect(after).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(heading(after.text)).toBe("Phiên gần nhất: 06/06/2024");
    // Now fresh for the TTL: the next midnight is a day away.
    expect(after.headers.get("Cache-Control")).toBe("private, max-age=3600");
    at("2024-06-06T17:10:00Z");
    expect(await client.counted(path)).toMatchObject({ cache: "HIT", trips: 0 });
  });
});
