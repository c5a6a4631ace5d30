/**
 * The edge cache on the read path (docs/api.md): what is a HIT, what shares an entry, what is
 * never stored, and the headers a client sees. Each test has its own databases, customer and
 * origin, so no test can see another's entries.
 */
import { describe, expect, it } from "vitest";
import { newSlug } from "../../src/domain/slug";
import { Book, writeTarget } from "../support/book";
import { CACHED, pathsOf } from "../support/endpoints";
import { sleep, withInvestor } from "./helpers";

/** Headers that are the cache's own business and must never reach a client. */
const INTERNAL = ["cache-tag", "x-cache-stored-at", "cf-cache-status"];
const leaked = (headers: Headers) => [...headers.keys()].filter((name) => INTERNAL.includes(name));

describe("a cached answer", () => {
  it("serves the second identical request as a HIT with no database request and the same body", async () => {
    const { client, slug } = await withInvestor();
    const path = `/api/portfolio/${slug}`;

    const miss = await client.counted(path);
    expect(miss).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(miss.body.data).toHaveLength(2);

    const hit = await client.counted(path);
    expect(hit).toMatchObject({ status: 200, cache: "HIT", trips: 0 });
    expect(hit.text).toBe(miss.text);
    expect(hit.headers.get("ETag")).toBe(miss.headers.get("ETag"));
    expect(hit.headers.get("Content-Type")).toBe(miss.headers.get("Content-Type"));
  });

  it("caches every public endpoint, each under its own entry", async () => {
    const { client, slug, accounts } = await withInvestor();
    const paths = pathsOf(CACHED, { slug, accountId: accounts.ssi.id });
    const misses = new Map<string, string>();
    for (const path of paths) misses.set(path, (await client.expectServed(path, "MISS", 1)).text);
    for (const path of paths) {
      const hit = await client.expectServed(path, "HIT", 0);
      expect(hit.text, path).toBe(misses.get(path));
    }
    expect(new Set(misses.values()).size).toBe(paths.length);
  });

  it("is per customer: another customer's first request is a MISS", async () => {
    const { client, slug } = await withInvestor();
    const other = new Book();
    const { customer } = other.simpleCustomer();
    await writeTarget(client.dbs.target, other);

    expect(await client.counted(`/api/customers/${slug}`)).toMatchObject({ cache: "MISS", trips: 1 });
    const theirs = await client.counted(`/api/customers/${customer.slug}`);
    expect(theirs).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(theirs.body.data.slug).toBe(customer.slug);
    expect(await client.counted(`/api/customers/${slug}`)).toMatchObject({ cache: "HIT", trips: 0 });
  });
});

describe("the cache key", () => {
  it("ignores parameter order, unknown parameters, spelled-out defaults, code case and repeats", async () => {
    const { client, slug } = await withInvestor();
    const base = `/api/transactions/${slug}`;
    const first = await client.counted(`${base}?type=buy&broker=SSI&stock_code=FPT`);
    expect(first).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(first.body.pagination).toEqual({ page: 1, per_page: 10, total: 1 });

    const same = [
      `${base}?stock_code=FPT&type=buy&broker=SSI`,
      `${base}?broker=SSI&stock_code=FPT&type=buy&utm_source=mail&x=1`,
      `${base}?page=1&per_page=10&type=buy&broker=SSI&stock_code=FPT`,
      `${base}?type=buy&broker=ssi&stock_code=fpt`,
      `${base}?type=buy&broker=Ssi&stock_code=Fpt&per_page=10`,
      `${base}?type=buy&broker=SSI&stock_code=FPT&type=sell`, // the first value counts, as in validation
    ];
    for (const path of same) {
      const hit = await client.counted(path);
      expect({ path, cache: hit.cache, trips: hit.trips }).toEqual({ path, cache: "HIT", trips: 0 });
      expect(hit.text, path).toBe(first.text);
    }
  });

  it("treats no parameters and the defaults spelled out as one entry", async () => {
    const { client, slug, accounts } = await withInvestor();
    for (const base of [`/api/transactions/${slug}`, `/api/transactions/${slug}/${accounts.vnd.id}`]) {
      const miss = await client.counted(base);
      expect(miss).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
      for (const query of ["?page=1", "?per_page=10", "?per_page=10&page=1", "?page=1&per_page=10&unknown=yes"]) {
        const hit = await client.counted(`${base}${query}`);
        expect({ query, cache: hit.cache, trips: hit.trips }).toEqual({ query, cache: "HIT", trips: 0 });
        expect(hit.text).toBe(miss.text);
      }
    }
  });

  it("makes a different filter or page a MISS of its own", async () => {
    const { client, slug } = await withInvestor();
    const base = `/api/transactions/${slug}`;
    const buys = await client.counted(`${base}?type=buy&broker=SSI&stock_code=FPT`);
    expect(buys).toMatchObject({ cache: "MISS", trips: 1 });

    const different = [
      `${base}?type=sell&broker=SSI&stock_code=FPT`,
      `${base}?type=buy&broker=VND&stock_code=FPT`,
      `${base}?type=buy&broker=SSI&stock_code=HPG`,
      `${base}?type=buy&broker=SSI&stock_code=FPT&page=2`,
      `${base}?type=buy&broker=SSI&stock_code=FPT&per_page=5`,
      `${base}?type=buy&broker=SSI&stock_code=FPT&start_date=2024-01-01`,
      `${base}?type=buy&broker=SSI&stock_code=FPT&end_date=2024-12-31`,
      `${base}?type=buy`,
    ];
    for (const path of different) await client.expectServed(path, "MISS", 1);
    const sells = await client.get(different[0]!);
    expect(sells).toMatchObject({ cache: "HIT", body: { pagination: { total: 1 } } });
    expect(sells.body.data[0].type).toBe("sell");
    expect((await client.get(`${base}?type=buy&broker=SSI&stock_code=FPT&page=2`)).body).toMatchObject({
      data: [],
      pagination: { page: 2, total: 1 },
    });
  });
});

describe("answers that are never cached", () => {
  it("a 404 for an unknown slug costs a database request every time, and never hides a customer who arrives", async () => {
    const { client } = await withInvestor();
    const book = new Book();
    const { customer } = book.simpleCustomer();
    const path = `/api/customers/${customer.slug}`;
    for (let i = 0; i < 2; i++) {
      const notFound = await client.counted(path);
      expect(notFound).toMatchObject({
        status: 404,
        cache: null,
        trips: 1,
        body: { success: false, error: "Not Found", code: "not_found" },
      });
      expect(notFound.headers.get("Cache-Control")).toBe("private, no-store");
      expect(notFound.headers.get("ETag")).toBeNull();
    }
    await writeTarget(client.dbs.target, book);
    expect(await client.counted(path)).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(await client.counted(path)).toMatchObject({ status: 200, cache: "HIT", trips: 0 });
  });

  it("a 404 for another customer's account is not cached either", async () => {
    const { client, slug } = await withInvestor();
    const path = `/api/transactions/${slug}/${crypto.randomUUID()}`;
    for (let i = 0; i < 2; i++) expect(await client.counted(path)).toMatchObject({ status: 404, cache: null, trips: 1 });
    const unknown = `/api/stats/${newSlug()}`;
    for (let i = 0; i < 2; i++) expect(await client.counted(unknown)).toMatchObject({ status: 404, cache: null, trips: 1 });
  });

  it("a 400 is never served from the cache, even for a customer whose answers are cached", async () => {
    const { client, slug } = await withInvestor();
    const base = `/api/transactions/${slug}`;
    expect(await client.counted(base)).toMatchObject({ cache: "MISS" });
    expect(await client.counted(base)).toMatchObject({ cache: "HIT" });
    for (const query of [
      "?page=0",
      "?per_page=101",
      "?type=hold",
      "?start_date=2024-02-30",
      "?start_date=2024-03-01&end_date=2024-01-01",
    ]) {
      const replies = [await client.counted(`${base}${query}`), await client.counted(`${base}${query}`)];
      for (const reply of replies) {
        expect({ query, status: reply.status, cache: reply.cache, error: reply.body.error, code: reply.body.code }).toEqual({
          query,
          status: 400,
          cache: null,
          error: "Bad Request",
          code: "bad_request",
        });
        expect(reply.headers.get("Cache-Control")).toBe("private, no-store");
      }
      expect(replies[1]!.text).toBe(replies[0]!.text);
    }
  });

  it("nothing is cached with CACHE_TTL_SECONDS=0: every request is a database trip", async () => {
    const { client, slug, accounts } = await withInvestor({ CACHE_TTL_SECONDS: "0" });
    for (const path of pathsOf(CACHED, { slug, accountId: accounts.ssi.id })) {
      const replies = [
        await client.expectServed(path, null, 1),
        await client.expectServed(path, null, 1),
        await client.expectServed(path, null, 1),
      ];
      for (const reply of replies) {
        expect(reply.headers.get("Cache-Control")).toBe("private, no-store");
        expect(reply.headers.get("ETag")).toBeNull();
      }
      expect(replies[2]!.text).toBe(replies[0]!.text);
    }
  });
});

describe("headers", () => {
  it("Cache-Control is private with the entry's remaining TTL, and Age counts up", async () => {
    const { client, slug } = await withInvestor({ CACHE_TTL_SECONDS: "5" });
    const path = `/api/stats/${slug}`;
    const miss = await client.get(path);
    expect(miss.headers.get("Cache-Control")).toBe("private, max-age=5");
    expect(miss.headers.get("Age")).toBe("0");

    await sleep(1100);
    const hit = await client.get(path);
    expect(hit.cache).toBe("HIT");
    const [, maxAge] = /^private, max-age=(\d+)$/.exec(hit.headers.get("Cache-Control") ?? "") ?? [];
    const age = Number(hit.headers.get("Age"));
    expect(age).toBeGreaterThanOrEqual(1);
    expect(Number(maxAge) + age).toBe(5);
  });

  it("no internal header reaches a client, on a MISS, a HIT or a 304", async () => {
    const { client, slug } = await withInvestor();
    const path = `/api/aggregate/${slug}`;
    const miss = await client.get(path);
    const hit = await client.get(path);
    const notModified = await client.get(path, { "If-None-Match": hit.headers.get("ETag")! });
    for (const reply of [miss, hit, notModified]) {
      expect(leaked(reply.headers)).toEqual([]);
      expect(reply.headers.get("X-Request-Id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(reply.headers.get("Referrer-Policy")).toBe("no-referrer");
      expect(reply.headers.get("X-Robots-Tag")).toBe("noindex, nofollow");
    }
    expect(hit.headers.get("X-Request-Id")).not.toBe(miss.headers.get("X-Request-Id"));
  });

  it("CORS headers come from the request being answered, not from the one that filled the cache", async () => {
    const { client, slug } = await withInvestor({ CORS_ORIGINS: "https://app.example" });
    const path = `/api/customers/${slug}`;
    const allowed = await client.get(path, { Origin: "https://app.example" });
    expect(allowed).toMatchObject({ cache: "MISS" });
    expect(allowed.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");

    const stranger = await client.get(path, { Origin: "https://evil.example" });
    expect(stranger.cache).toBe("HIT");
    expect(stranger.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const noOrigin = await client.get(path);
    expect(noOrigin.headers.get("Access-Control-Allow-Origin")).toBeNull();
    const again = await client.get(path, { Origin: "https://app.example" });
    expect(again.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example");
    expect(again.headers.get("Vary")).toBe("Origin");
    expect(again.headers.get("Access-Control-Expose-Headers")).toBe("ETag,X-Cache,X-Request-Id,Retry-After");
  });
});

describe("ETag and If-None-Match", () => {
  it("answers a matching If-None-Match with 304 and no body on a HIT, and a different tag with 200", async () => {
    const { client, slug } = await withInvestor();
    const path = `/api/analytics/${slug}`;
    const miss = await client.get(path);
    const etag = miss.headers.get("ETag")!;
    expect(etag).toMatch(/^"[0-9a-f]{24}"$/);

    for (const ifNoneMatch of [etag, `W/${etag}`, `"nope", ${etag}`, "*"]) {
      const notModified = await client.counted(path, { "If-None-Match": ifNoneMatch });
      expect({
        ifNoneMatch,
        status: notModified.status,
        text: notModified.text,
        cache: notModified.cache,
        trips: notModified.trips,
      }).toEqual({
        ifNoneMatch,
        status: 304,
        text: "",
        cache: "HIT",
        trips: 0,
      });
      expect(notModified.headers.get("ETag")).toBe(etag);
      expect(notModified.headers.get("Cache-Control")).toMatch(/^private, max-age=\d+$/);
      expect(notModified.headers.get("Content-Type")).toBeNull();
    }

    const changed = await client.counted(path, { "If-None-Match": '"0123456789abcdef01234567"' });
    expect(changed).toMatchObject({ status: 200, cache: "HIT", trips: 0 });
    expect(changed.text).toBe(miss.text);
    expect(changed.headers.get("ETag")).toBe(etag);
  });

  it("answers a matching If-None-Match with 304 on a MISS too, after the one database request", async () => {
    const { client, slug } = await withInvestor();
    const path = `/api/customers/${slug}`;
    const etag = (await client.get(path)).headers.get("ETag")!;

    // Another origin has its own cache, so its first request is a MISS of the same data.
    const elsewhere = client.elsewhere();
    const notModified = await elsewhere.counted(path, { "If-None-Match": etag });
    expect(notModified).toMatchObject({ status: 304, text: "", cache: "MISS", trips: 1 });
    expect(notModified.headers.get("ETag")).toBe(etag);
    // The MISS stored the full answer all the same.
    const hit = await elsewhere.counted(path);
    expect(hit).toMatchObject({ status: 200, cache: "HIT", trips: 0 });
    expect(hit.headers.get("ETag")).toBe(etag);
    expect(hit.body.data.slug).toBe(slug);
  });

  it("gives equal bodies equal tags and different bodies different ones", async () => {
    const { client, slug } = await withInvestor();
    const tags = await Promise.all(
      [`/api/stats/${slug}`, `/api/portfolio/${slug}`].map(async (p) => (await client.get(p)).headers.get("ETag")),
    );
    expect(tags[0]).not.toBe(tags[1]);
    const elsewhere = client.elsewhere();
    expect((await elsewhere.get(`/api/stats/${slug}`)).headers.get("ETag")).toBe(tags[0]);
  });
});
