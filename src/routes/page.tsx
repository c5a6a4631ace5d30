/**
 * GET /c/:slug: the customer's portfolio page, for a person rather than a program. It is the
 * aggregate, the latest dividends and share credits, and one page of trade history, read in one
 * batch by the API's own queries (src/db/queries/customer-page.ts), rendered on the server with
 * hono/jsx: no script, no other origin.
 * It lives under the same per-customer cache scope as the API (src/cache), so a sync that
 * changes the customer makes the page fresh too.
 */
import { type Context, Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { Child } from "hono/jsx";
import { languageDetector } from "hono/language";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { cached, forValuedCustomer, type Resource, resourceKey } from "../cache";
import type { AppEnv } from "../context";
import { findCustomerPage } from "../db/queries";
import { onError } from "../error-handler";
import { AppError } from "../errors";
import { PageBody } from "../page/body";
import { nextVietnamMidnight } from "../page/clock";
import { Document } from "../page/document";
import { PageHeader } from "../page/header";
import type { HistoryState } from "../page/history";
import { LANGS, type Lang, type Messages } from "../page/i18n";
import type { ChosenRange } from "../page/performance";
import { DEFAULT_RANGE, filterParams, parseFilters, parseRange } from "../page/query";
import { type View, ViewContext, viewFor } from "../page/view";
import { stylesheetHash } from "../page/styles";
import { SlugParams } from "../schemas";
import { LOOKUP_BRAKE } from "./lookup";

/**
 * The reader's language, detected once per request: `?lang=` when it names one of ours, then the
 * first of ours the browser accepts (Accept-Language, by quality), then Vietnamese. The
 * middleware's defaults differ: it would read and set a `language` cookie, which a page kept in
 * a cache shared per language must not depend on or send, and fall back to English.
 */
const detectLanguage = languageDetector({
  order: ["querystring", "header"],
  lookupQueryString: "lang",
  supportedLanguages: [...LANGS],
  fallbackLanguage: "vi",
  caches: false,
});

/** What detectLanguage found: only ever one of LANGS. */
const languageOf = (c: Context) => c.get("language") as Lang;

/**
 * Set outside the edge cache, so a cached page gets them too. The policy allows the page's own
 * stylesheet (by hash), its empty icon, and its form posting back here: nothing else, and no
 * script at all.
 */
const pageHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const lang = languageOf(c);
  c.header(
    "Content-Security-Policy",
    `default-src 'none'; style-src ${await stylesheetHash()}; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  );
  c.header("Content-Language", lang);
  c.header("Vary", "Accept-Language", { append: true });
});

/** A whole page, its parts reading the view (language, words, formats, slug) from context. */
async function render(view: View, title: string, header: Child, body: Child): Promise<string> {
  return `<!doctype html>${await (
    <ViewContext.Provider value={view}>
      <Document title={title} header={header}>
        {body}
      </Document>
    </ViewContext.Provider>
  )}`;
}

function otherLanguage(slug: string, lang: Lang, url: URL): string {
  const params = filterParams(url.searchParams);
  const range = url.searchParams.getAll("range").find((v) => v !== "");
  if (range !== undefined) params.set("range", range);
  params.set("lang", lang === "vi" ? "en" : "vi");
  return `/c/${encodeURIComponent(slug)}?${params}`;
}

interface Problem {
  status: number;
  /** For a 5xx, so the reader can quote it. */
  requestId?: string;
  /** For a 429, the seconds its Retry-After says. */
  retryAfter?: string;
}

/** What each problem page says; a 5xx says the same whatever its cause. */
function problemText(t: Messages, problem: Problem): [title: string, text: string] {
  if (problem.status === 404) return [t.notFoundTitle, t.notFoundText];
  if (problem.status === 429) return [t.tooManyTitle, t.tooManyText(problem.retryAfter ?? "60")];
  return [t.errorTitle, t.errorText];
}

/** The 404, 429 and 5xx pages: what happened, in the reader's language, and nothing about why. */
async function problemPage(lang: Lang, slug: string, url: URL, problem: Problem): Promise<string> {
  const view = viewFor(lang, slug);
  const [title, text] = problemText(view.t, problem);
  const { requestId } = problem;
  return render(
    view,
    title,
    <PageHeader otherLanguageHref={otherLanguage(slug, lang, url)} />,
    <>
      <h1>{title}</h1>
      <p>{text}</p>
      {requestId ? (
        <p>
          {view.t.requestId}: <code>{requestId}</code>
        </p>
      ) : null}
    </>,
  );
}

/**
 * The page's cache entry: its language, its history query as the history schema validates it
 * (defaults and case decided there) and its performance range (the default filled in), so equal
 * pages share one entry in the customer's scope.
 */
const pageResource: Resource = (c) => {
  const url = new URL(c.req.url);
  const filters = parseFilters(filterParams(url.searchParams));
  const range = parseRange(url.searchParams);
  return resourceKey(`${url.pathname}/${languageOf(c)}`, {
    ...(filters.success ? filters.query : Object.fromEntries(filterParams(url.searchParams))),
    range: range.success ? range.range : `invalid:${range.value}`,
  });
};

export const page = new Hono<AppEnv>()
  // Outside the edge cache, so a cached page carries the headers, and a client over the 404
  // brake gets no cached page either. The brake is the API lookups' (./lookup.ts), here so
  // that its 429 reaches a person as a page; on GET only, as a 405 is no miss.
  .use("/c/:slug", detectLanguage, pageHeaders)
  .get(
    "/c/:slug",
    ...LOOKUP_BRAKE,
    // A page calls its latest session "today" only on that day in Vietnam: it expires at the
    // next midnight there, whatever the TTL (src/page/clock.ts).
    cached(
      forValuedCustomer,
      pageResource,
      nextVietnamMidnight,
    )(async (c: Context<AppEnv, "/c/:slug">) => {
      const url = new URL(c.req.url);
      const raw = c.req.param("slug");
      const lang = languageOf(c);
      const slug = SlugParams.parse({ slug: raw }).slug;
      const filters = parseFilters(filterParams(url.searchParams));
      const range = parseRange(url.searchParams);
      const db = c.get("db");

      // Invalid filters or range still show the customer, with the message where the history or
      // the chosen range would be; one round trip either way.
      const found = await findCustomerPage(db, slug, filters.success ? filters.query : undefined, {
        benchmark: c.get("config").BENCHMARK_CODE,
        range: range.success ? range.range : undefined,
      });
      if (!found) return c.html(await problemPage(lang, raw, url, { status: 404 }), 404);
      const { aggregate, received, history, today } = found;
      // A valid range always reads its period (src/db/queries/customer-page.ts).
      const chosen: ChosenRange = range.success
        ? { kind: "range", range: range.range, read: found.chosen! }
        : { kind: "invalid", value: range.value };
      // A valid query always reads its history page (src/db/queries/customer-page.ts).
      const state: HistoryState = filters.success
        ? { kind: "page", query: filters.query, page: history! }
        : { kind: "invalid", issues: filters.issues, values: filters.values };

      // The history's links keep a chosen range; the default needs no parameter.
      const kept = range.success && range.range !== DEFAULT_RANGE ? range.range : undefined;
      const view = viewFor(lang, aggregate.customer.slug, kept);
      const body = await render(
        view,
        view.t.title(aggregate.customer.name),
        <PageHeader
          aggregate={aggregate}
          syncedAt={found.syncedAt}
          otherLanguageHref={otherLanguage(aggregate.customer.slug, lang, url)}
        />,
        <PageBody aggregate={aggregate} received={received} today={today} chosen={chosen} history={state} />,
      );
      return c.html(body, filters.success && range.success ? 200 : 400);
    }),
  )
  .onError(async (err, c) => {
    // The API's handler decides the status and logs; the person gets a page instead of JSON,
    // with the error's own headers (a 429's Retry-After).
    const status = onError(err, c).status as ContentfulStatusCode;
    const headers = err instanceof AppError ? err.headers : {};
    const problem = { status, requestId: status >= 500 ? c.get("requestId") : undefined, retryAfter: headers["Retry-After"] };
    return c.html(await problemPage(languageOf(c), c.req.param("slug") ?? "", new URL(c.req.url), problem), status, headers);
  });
