/**
 * Stale-if-error: with the target database down, a cached slug still answers from the cache,
 * fresh (HIT) or past its TTL (STALE), while an uncached one gets the 503 envelope; when the
 * database is back, the stale entry is refreshed.
 */
import { describe, expect, it } from "vitest";
import { newSlug } from "../../src/domain/slug";
import { sleep, withInvestor } from "./helpers";

function expect503(reply: { status: number; body: any; headers: Headers; cache: string | null }) {
  expect(reply.status).toBe(503);
  expect(reply.body).toEqual({
    success: false,
    error: "Service Unavailable",
    code: "database_unavailable",
    request_id: reply.headers.get("X-Request-Id"),
  });
  expect(reply.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  expect(reply.cache).toBeNull();
  expect(reply.headers.get("Cache-Control")).toBe("private, no-store");
}

describe("with the target database down", () => {
  it("a fresh cached slug is still a HIT, and an uncached one gets 503", async () => {
    const { client, slug } = await withInvestor();
    const cached = `/api/customers/${slug}`;
    const miss = await client.get(cached);
    expect(miss).toMatchObject({ status: 200, cache: "MISS" });

    await client.dbs.fault("target", "error500");
    const hit = await client.counted(cached);
    expect(hit).toMatchObject({ status: 200, cache: "HIT", trips: 0 });
    expect(hit.text).toBe(miss.text);

    const uncached = await client.counted(`/api/portfolio/${slug}`);
    expect(uncached.trips).toBe(1);
    expect503(uncached);
  });

  it("a cached slug past its TTL is served STALE, and refreshed (MISS, then HIT) once the database is back", async () => {
    const { client, slug } = await withInvestor({ CACHE_TTL_SECONDS: "1" });
    const path = `/api/transactions/${slug}?type=buy`;
    const miss = await client.get(path);
    expect(miss).toMatchObject({ status: 200, cache: "MISS", body: { pagination: { total: 2 } } });
    const etag = miss.headers.get("ETag")!;

    await sleep(1100);
    await client.dbs.fault("target", "error500");
    const stale = await client.counted(path);
    expect(stale).toMatchObject({ status: 200, cache: "STALE" });
    expect(stale.trips).toBe(1); // it tried the database first
    expect(stale.text).toBe(miss.text);
    expect(stale.headers.get("Cache-Control")).toBe("private, max-age=0");
    expect(stale.headers.get("ETag")).toBe(etag);
    expect(Number(stale.headers.get("Age"))).toBeGreaterThanOrEqual(1);
    expect(stale.headers.get("Cache-Tag")).toBeNull();
    expect(stale.headers.get("X-Cache-Stored-At")).toBeNull();

    const notModified = await client.get(path, { "If-None-Match": etag });
    expect(notModified).toMatchObject({ status: 304, text: "", cache: "STALE" });

    expect503(await client.get(`/api/transactions/${slug}?type=sell`));
    expect503(await client.get(`/api/stats/${slug}`));

    await client.dbs.recover("target");
    const refreshed = await client.counted(path);
    expect(refreshed).toMatchObject({ status: 200, cache: "MISS", trips: 1 });
    expect(refreshed.text).toBe(miss.text);
    expect(refreshed.headers.get("Cache-Control")).toBe("private, max-age=1");
    const hit = await client.counted(path);
    expect(hit).toMatchObject({ status: 200, cache: "HIT", trips: 0 });
  });

  it("an unknown slug gets 503 while the database is down", async () => {
    const { client, slug } = await withInvestor({ CACHE_TTL_SECONDS: "1" });
    expect(await client.get(`/api/customers/${slug}`)).toMatchObject({ status: 200, cache: "MISS" });
    await client.dbs.fault("target", "error500");
    expect503(await client.get(`/api/customers/${newSlug()}`));
  });
});
