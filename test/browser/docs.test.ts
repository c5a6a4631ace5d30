/**
 * GET /api/docs in a real browser: Scalar's reference loads from this Worker alone (no request
 * leaves the origin, no policy violation), lists every operation of the document, and its "try
 * it" client sends a request that succeeds and shows the answer.
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

let service: Stack;
let browser: Browser;

beforeAll(async () => {
  [service, browser] = await Promise.all([startStack({ book }), launchChromium()]);
});

afterAll(async () => {
  await Promise.all([browser?.close(), service?.stop()]);
});

/** Opens the reference, recording what a reader would not want: foreign requests, errors. */
async function openReference(): Promise<{ page: Page; foreign: string[]; errors: string[] }> {
  const page = await browser.newPage();
  const foreign: string[] = [];
  const errors: string[] = [];
  page.on("request", (req) => {
    if (!req.url().startsWith(`${service.url}/`)) foreign.push(req.url());
  });
  page.on("console", (msg) => {
    if (msg.type() === "error" || msg.text().includes("Content Security Policy")) errors.push(msg.text());
  });
  page.on("pageerror", (err) => errors.push(String(err)));
  await page.goto(`${service.url}/api/docs`);
  return { page, foreign, errors };
}

describe("the API reference in Chromium", () => {
  it("lists every operation of the document in its navigation, loading nothing from elsewhere", async () => {
    const { page, foreign, errors } = await openReference();
    const document = (await (await fetch(`${service.url}/api/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { summary: string }>>;
    };
    const summaries = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op.summary));
    expect(summaries.length).toBe(ENDPOINTS.length);
    const navigation = page.locator("aside");
    for (const summary of summaries) {
      await expect
        .poll(() => navigation.getByText(summary, { exact: true }).count(), { message: summary, timeout: 15_000 })
        .toBe(1);
    }
    expect(foreign).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('sends a "try it" request that succeeds and shows its answer', async () => {
    const { page, foreign, errors } = await openReference();
    await page.locator("aside").getByText("Supported brokers", { exact: true }).click();
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
    expect(errors).toEqual([]);
    await page.close();
  });
});
