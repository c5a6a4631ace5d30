/**
 * GET /api/docs in a real browser, against `wrangler dev` and so the `[assets]` routing of
 * wrangler.toml. The page is the list of every operation, rendered by the Worker: nothing blocks
 * rendering, and the whole page stays under 100 KB, since Scalar's script loads only when the
 * reader presses the button for it. Scalar's reference then loads from this Worker's static
 * assets alone (no request leaves the origin, no policy violation, no console error, no eval
 * allowed), with the security headers every answer carries, lists every operation of the
 * document, and its "try it" client sends a request that succeeds and shows the answer.
 */
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Book } from "../support/book";
import { ENDPOINTS } from "../support/endpoints";
import { launchChromium } from "./chromium";
import { type Stack, startStack } from "./harness";

/** A back office with one broker, synced into the target when the stack starts. */
const book = new Book();
const broker = book.broker({ code: "VND", name: "VNDirect Securities" });

/** What the page may cost before the reader asks for more, in bytes as decoded (so at least what travels compressed). */
const PAGE_BUDGET = 100_000;

let service: Stack;
let browser: Browser;
let summaries: string[];

beforeAll(async () => {
  [service, browser] = await Promise.all([startStack({ book }), launchChromium()]);
  const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as {
    paths: Record<string, Record<string, { summary: string }>>;
  };
  summaries = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.summary));
});

afterAll(async () => {
  await Promise.all([browser?.close(), service?.stop()]);
});

interface Reference {
  page: Page;
  /** The page's Content-Security-Policy. */
  policy: string;
  /** Requests to any other origin. */
  foreign: string[];
  /** Console errors, uncaught exceptions, policy violations, answers of 400 or more. */
  problems(): Promise<string[]>;
}

/** Opens the reference, recording what a reader would not want: foreign requests, errors. */
async function openReference(options: { javaScript?: boolean } = {}): Promise<Reference> {
  const context = await browser.newContext({ javaScriptEnabled: options.javaScript ?? true });
  const page = await context.newPage();
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on("request", (req) => {
    if (!req.url().startsWith(`${service.url}/`)) foreign.push(req.url());
  });
  page.on("response", (res) => {
    if (res.status() >= 400) errors.push(`${res.status()} ${res.url()}`);
  });
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.text().includes("Content Security Policy")) errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  // Chromium reports a refused eval as an event, and not always on the console.
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(globalThis, { policyViolations: seen });
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  const response = await page.goto(`${service.url}/api/docs`);
  const policy = response!.headers()["content-security-policy"] ?? "";
  const problems = async () => {
    const violations =
      options.javaScript === false
        ? []
        : await page.evaluate(() => (globalThis as never as { policyViolations: string[] }).policyViolations);
    return [...errors, ...violations.map((v) => `policy violation: ${v}`)];
  };
  return { page, policy, foreign, problems };
}

interface Loaded {
  name: string;
  startTime: number;
  responseEnd: number;
  transferSize: number;
  decodedBodySize: number;
  renderBlockingStatus?: string;
}

/** The page's navigation and resources as the Resource Timing API saw them, and its first contentful paint. */
function timings(page: Page) {
  return page.evaluate(() => {
    const timeline = (globalThis as never as { performance: { getEntriesByType(type: string): unknown[] } }).performance;
    const pick = (e: Loaded): Loaded => ({
      name: e.name,
      startTime: e.startTime,
      responseEnd: e.responseEnd,
      transferSize: e.transferSize,
      decodedBodySize: e.decodedBodySize,
      renderBlockingStatus: e.renderBlockingStatus,
    });
    const paint = (timeline.getEntriesByType("paint") as Array<{ name: string; startTime: number }>).find(
      (e) => e.name === "first-contentful-paint",
    );
    return {
      firstPaint: paint?.startTime,
      navigation: pick(timeline.getEntriesByType("navigation")[0] as Loaded),
      resources: (timeline.getEntriesByType("resource") as Loaded[]).map(pick),
    };
  });
}

/** The button that loads Scalar's reference. */
const tryIt = (page: Page) => page.getByRole("button", { name: "Open the interactive reference, with requests to try" });

describe("the API reference in Chromium", () => {
  it("lists every operation with no script at all, and allows no eval", async () => {
    const { page, policy, foreign, problems } = await openReference({ javaScript: false });
    expect(summaries.length).toBe(ENDPOINTS.length);
    const listed = await page.locator("#operations .summary").allInnerTexts();
    expect(listed.sort()).toEqual([...summaries].sort());
    // The descriptions' code spans show as code, not as backticks.
    expect(await page.locator("#operations").textContent()).not.toContain("`");
    expect(await page.locator("#operations p code").allInnerTexts()).toEqual(expect.arrayContaining(["X-Admin-Key", "select 1"]));
    // A button that needs a script is not offered without one.
    expect(await page.locator("#try-it").isVisible()).toBe(false);
    expect(policy).toContain("script-src 'self';");
    expect(policy).not.toContain("unsafe-eval");
    expect(foreign).toEqual([]);
    expect(await problems()).toEqual([]);
    await page.context().close();
  });

  it("paints that list with nothing render-blocking, under 100 KB in all, and loads no Scalar until asked", async () => {
    const { page, foreign, problems } = await openReference();
    await page.waitForLoadState("networkidle");
    expect(await tryIt(page).isVisible()).toBe(true);
    const { firstPaint, navigation, resources } = await timings(page);
    expect(firstPaint).toBeGreaterThan(0);
    const loaded = [navigation, ...resources];
    expect(loaded.filter((r) => r.renderBlockingStatus === "blocking").map((r) => r.name)).toEqual([]);
    const decoded = loaded.reduce((sum, r) => sum + r.decodedBodySize, 0);
    const transferred = loaded.reduce((sum, r) => sum + r.transferSize, 0);
    console.info(
      `/api/docs: first contentful paint at ${firstPaint!.toFixed(0)} ms; the page ${loaded.length} request(s), ` +
        `${decoded} bytes decoded (${transferred} transferred)`,
    );
    expect(decoded).toBeLessThanOrEqual(PAGE_BUDGET);
    expect(loaded.map((r) => new URL(r.name).pathname)).toEqual(["/api/docs", "/api/docs/reference.js"]);
    expect(foreign).toEqual([]);
    expect(await problems()).toEqual([]);
    await page.context().close();
  });

  it("serves Scalar's script, a static asset, with the security headers every answer carries", async () => {
    const res = await fetch(`${service.url}/api/docs/scalar.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^(text|application)\/javascript\b/);
    expect((await res.text()).length).toBeGreaterThan(1_000_000);
    expect({
      policy: res.headers.get("Content-Security-Policy"),
      referrer: res.headers.get("Referrer-Policy"),
      robots: res.headers.get("X-Robots-Tag"),
      sniff: res.headers.get("X-Content-Type-Options"),
      frames: res.headers.get("X-Frame-Options"),
      hsts: res.headers.get("Strict-Transport-Security"),
      resourcePolicy: res.headers.get("Cross-Origin-Resource-Policy"),
      requestId: res.headers.get("X-Request-Id"),
    }).toEqual({
      policy: "default-src 'none'; frame-ancestors 'none'",
      referrer: "no-referrer",
      robots: "noindex, nofollow",
      sniff: "nosniff",
      frames: "DENY",
      hsts: "max-age=63072000; includeSubDomains",
      resourcePolicy: "cross-origin",
      requestId: expect.any(String),
    });
  });

  it("shows Scalar's reference in its place when asked, with every operation of the document in its navigation", async () => {
    const { page, foreign, problems } = await openReference();
    const scalar = page.waitForResponse((res) => res.url() === `${service.url}/api/docs/scalar.js`);
    await tryIt(page).click();
    expect((await scalar).status()).toBe(200);
    const navigation = page.locator("aside");
    for (const summary of summaries) {
      await expect
        .poll(() => navigation.getByText(summary, { exact: true }).count(), { message: summary, timeout: 30_000 })
        .toBe(1);
    }
    expect(await page.locator("#operations").count()).toBe(0);
    expect(foreign).toEqual([]);
    expect(await problems()).toEqual([]);
    await page.context().close();
  });

  it('sends a "try it" request that succeeds and shows its answer', async () => {
    const { page, foreign, problems } = await openReference();
    await tryIt(page).click();
    await page.locator("aside").getByText("Supported brokers", { exact: true }).click({ timeout: 30_000 });
    await page
      .locator('[id$="/GET/api/brokers"]')
      .getByRole("button", { name: /Test Request/ })
      .click();
    const answered = page.waitForResponse((res) => res.url() === `${service.url}/api/brokers`);
    await page.getByRole("button", { name: /^Send Request/ }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ success: true, data: [{ id: broker.id, code: "VND", name: "VNDirect Securities" }] });
    // biome-ignore lint/performance/useDomNodeTextContent: a Playwright locator; innerText is the text a reader sees
    await expect.poll(() => page.locator("body").innerText()).toMatch(/Status:\s*200 OK/);
    expect(foreign).toEqual([]);
    expect(await problems()).toEqual([]);
    await page.context().close();
  });
});
