/**
 * Every demo customer's page (the demo book of scripts/demo, as `npm run db:seed` loads it) in
 * Chromium, in both languages, at 390 px (a phone) and 1280 px: nothing wider than the screen,
 * no number broken across lines, no two labels of a chart's axes overlapping, no "Today" over an
 * older session, and no accessibility violation axe-core finds. With DEMO_SCREENSHOTS=1,
 * full-page screenshots go to a temp folder (printed), never into the repository, for a person
 * to look at; they assert nothing and cost a tenth of the file's time, so the suite skips them.
 * The two widths run side by side, each in its own browser context.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateDemoBookChunks } from "../../scripts/demo/generate";
import { demoSlugs, loadBook } from "../../scripts/demo/load";
import { launchChromium } from "./chromium";
import { type Stack, startStack } from "./harness";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const LANGS = [
  ["vi", "vi-VN"],
  ["en", "en-GB"],
] as const;
const WIDTHS = [390, 1280];

let stack: Stack;
let browser: Browser;
let customers: { slug: string; name: string }[] = [];
const shots = process.env.DEMO_SCREENSHOTS === "1" ? mkdtempSync(join(tmpdir(), "customer-pages-")) : undefined;

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    startStack({
      load: async (source) => {
        await loadBook(source, generateDemoBookChunks());
        customers = await demoSlugs(source, 100);
      },
    }),
    launchChromium(),
  ]);
  if (shots) console.info(`demo pages: screenshots in ${shots}`);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
});

/** Today's date in Vietnam (UTC+7), as the page decides it. */
const vietnamToday = () => new Date(Date.now() + 7 * 3_600_000).toISOString().slice(0, 10);

interface Findings {
  scrollWidth: number;
  wide: string[];
  broken: string[];
  overlapping: string[];
  session: { heading: string; kind?: string; end?: string } | null;
}

/** What the page shows that it must not, read in the page (after its folded tables are opened). */
function findings(page: Page): Promise<Findings> {
  return page.evaluate(() => {
    const name = (el: Element) => {
      const id = el.id ? `#${el.id}` : "";
      const cls = el.getAttribute("class") ? `.${el.getAttribute("class")!.split(" ").join(".")}` : "";
      return `${el.tagName.toLowerCase()}${id}${cls} "${(el.textContent ?? "").trim().slice(0, 40)}"`;
    };
    const width = window.innerWidth;
    const wide: string[] = [];
    for (const el of document.body.querySelectorAll("*")) {
      if (el.closest(".skip")) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue;
      if (box.right > width + 0.5) wide.push(`${name(el)} right edge ${box.right.toFixed(1)}`);
    }
    // Elements holding a number: amounts, counts, dates, account numbers; one line box each.
    const broken: string[] = [];
    for (const el of document.querySelectorAll("data, time, .nowrap")) {
      const text = (el.textContent ?? "").trim();
      if (!/\d/.test(text) || text.split(/\s+/).length > 3) continue;
      const rects = el.getClientRects();
      if (rects.length > 1) broken.push(`${name(el)} in ${rects.length} lines`);
    }
    const overlapping: string[] = [];
    for (const svg of document.querySelectorAll("svg.chart")) {
      const labels = [...svg.querySelectorAll("text")].map((t) => ({ text: t.textContent, box: t.getBoundingClientRect() }));
      for (let i = 0; i < labels.length; i++) {
        for (let j = i + 1; j < labels.length; j++) {
          const [a, b] = [labels[i]!.box, labels[j]!.box];
          if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
            overlapping.push(`${svg.getAttribute("aria-labelledby")}: "${labels[i]!.text}" and "${labels[j]!.text}"`);
        }
      }
    }
    const heading = document.querySelector("#today");
    const card = document.querySelector<HTMLElement>('[data-performance="1d"]');
    const times = card?.querySelectorAll('[data-figure="today_value"] [data-period] time');
    return {
      scrollWidth: document.documentElement.scrollWidth,
      wide,
      broken,
      overlapping,
      session: heading
        ? {
            heading: heading.textContent ?? "",
            kind: card?.dataset.session,
            end: times?.[times.length - 1]?.getAttribute("datetime") ?? undefined,
          }
        : null,
    };
  });
}

describe("every demo customer's page in Chromium", () => {
  it("fits 390 and 1280 px in both languages: nothing wider, no number broken, no labels overlapping, no stale today", async () => {
    expect(customers.length).toBeGreaterThanOrEqual(5);
    const today = vietnamToday();
    const atWidth = async (width: number) => {
      // bypassCSP lets the test inject axe-core; the page's own policy allows no script at all.
      const context = await browser.newContext({ bypassCSP: true, viewport: { width, height: 844 } });
      for (const [lang, locale] of LANGS) {
        for (const [n, customer] of customers.entries()) {
          const page = await context.newPage();
          await page.setExtraHTTPHeaders({ "Accept-Language": locale });
          const response = await page.goto(`${stack.url}/c/${customer.slug}?lang=${lang}`);
          const at = { width, lang, customer: customer.name };
          expect({ ...at, status: response?.status() }).toEqual({ ...at, status: 200 });
          if (shots) await page.screenshot({ path: join(shots, `${n + 1}-${lang}-${width}.png`), fullPage: true });
          // The figures folded behind each chart are part of the page too.
          await page.$$eval("details", (all) => {
            for (const d of all) d.setAttribute("open", "");
          });
          const found = await findings(page);
          expect.soft({ ...at, scrollWidth: found.scrollWidth <= width, wide: found.wide }).toEqual({
            ...at,
            scrollWidth: true,
            wide: [],
          });
          expect.soft({ ...at, broken: found.broken }).toEqual({ ...at, broken: [] });
          expect.soft({ ...at, overlapping: found.overlapping }).toEqual({ ...at, overlapping: [] });
          const session = found.session!;
          const saysToday = /Hôm nay|Today/.test(session.heading);
          expect.soft({ ...at, saysToday, kind: session.kind }).toEqual({
            ...at,
            saysToday: session.end === today,
            kind: session.end === today ? "today" : "latest",
          });

          await page.addScriptTag({ content: axeSource });
          const violations = await page.evaluate(async () => {
            // Only the violations are read, so axe need not collect the nodes that passed.
            const result = await (window as any).axe.run(document, { resultTypes: ["violations"] });
            return result.violations.map((v: any) => ({ id: v.id, nodes: v.nodes.map((node: any) => node.target.join(" ")) }));
          });
          expect.soft({ ...at, violations }).toEqual({ ...at, violations: [] });
          await page.close();
        }
      }
      await context.close();
    };
    await Promise.all(WIDTHS.map(atWidth));
  }, 900_000);
});
