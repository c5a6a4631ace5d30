/**
 * GET /c/:slug: the customer's portfolio page, for a person rather than a program. It is the
 * aggregate and one page of trade history, read in one batch by the API's own queries
 * (src/db/queries/customer-page.ts), rendered on the server with hono/jsx: no script, no other origin.
 * It lives under the same per-customer cache scope as the API (src/cache), so a sync that
 * changes the customer makes the page fresh too.
 */
import { type Context, Hono } from "hono";
import { cached, forValuedCustomer, type Resource, resourceKey } from "../cache";
import { createMiddleware } from "hono/factory";
import type { Child } from "hono/jsx";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { AppEnv } from "../context";
import { type Aggregate, findAggregate, findCustomerPage } from "../db/queries";
import { onError } from "../error-handler";
import { Document } from "../page/document";
import { formatFor } from "../page/format";
import { type Lang, MESSAGES } from "../page/i18n";
import { filterParams, pageLanguage, parseFilters } from "../page/query";
import {
  Accounts,
  Charts,
  History,
  type HistoryState,
  Holdings,
  PageHeader,
  Summary,
  TopDeals,
  Valuation,
  viewFor,
} from "../page/sections";
import { stylesheetHash } from "../page/styles";
import { SlugParams } from "../schemas";

/**
 * Set outside the edge cache, so a cached page gets them too. The policy allows the page's own
 * stylesheet (by hash), its empty icon, and its form posting back here: nothing else, and no
 * script at all.
 */
export const pageHeaders = createMiddleware<AppEnv>(async (c, next) => {
  await next();
  const lang = pageLanguage(new URL(c.req.url).searchParams, c.req.header("Accept-Language"));
  c.header(
    "Content-Security-Policy",
    `default-src 'none'; style-src ${await stylesheetHash()}; img-src data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`,
  );
  c.header("Content-Language", lang);
  c.header("Vary", "Accept-Language", { append: true });
});

async function render(title: string, lang: Lang, header: Child, body: Child): Promise<string> {
  return `<!doctype html>${await (
    <Document lang={lang} title={title} header={header}>
      {body}
    </Document>
  )}`;
}

function otherLanguage(slug: string, lang: Lang, url: URL): string {
  const params = filterParams(url.searchParams);
  params.set("lang", lang === "vi" ? "en" : "vi");
  return `/c/${encodeURIComponent(slug)}?${params}`;
}

/** The 404 and 5xx pages: what happened, in the reader's language, and nothing about why. */
async function problemPage(lang: Lang, slug: string, url: URL, status: number, requestId?: string): Promise<string> {
  const t = MESSAGES[lang];
  const v = viewFor(lang, slug, formatFor(lang));
  const [title, text] = status === 404 ? [t.notFoundTitle, t.notFoundText] : [t.errorTitle, t.errorText];
  return render(
    title,
    lang,
    <PageHeader v={v} otherLanguageHref={otherLanguage(slug, lang, url)} />,
    <>
      <h1>{title}</h1>
      <p>{text}</p>
      {requestId ? (
        <p>
          {t.requestId}: <code>{requestId}</code>
        </p>
      ) : null}
    </>,
  );
}

/**
 * The page's cache entry: its language and its history query as the history schema validates
 * it (defaults and case decided there), so equal pages share one entry in the customer's scope.
 */
const pageResource: Resource = (c) => {
  const url = new URL(c.req.url);
  const lang = pageLanguage(url.searchParams, c.req.header("Accept-Language"));
  const filters = parseFilters(filterParams(url.searchParams));
  return resourceKey(
    `${url.pathname}/${lang}`,
    filters.success ? filters.query : Object.fromEntries(filterParams(url.searchParams)),
  );
};

export const page = new Hono<AppEnv>()
  .get(
    "/c/:slug",
    cached(
      forValuedCustomer,
      pageResource,
    )(async (c: Context<AppEnv, "/c/:slug">) => {
      const url = new URL(c.req.url);
      const raw = c.req.param("slug");
      const lang = pageLanguage(url.searchParams, c.req.header("Accept-Language"));
      const slug = SlugParams.parse({ slug: raw }).slug;
      const filters = parseFilters(filterParams(url.searchParams));
      const db = c.get("db");

      // Invalid filters still show the customer, with the message where the history would be;
      // one round trip either way.
      let state: HistoryState;
      let aggregate: Aggregate | undefined;
      if (filters.success) {
        const found = await findCustomerPage(db, slug, filters.query);
        aggregate = found?.aggregate;
        if (found) state = { kind: "page", query: filters.query, page: found.history };
      } else {
        aggregate = await findAggregate(db, slug);
        state = { kind: "invalid", issues: filters.issues, values: filters.values };
      }
      if (!aggregate) return c.html(await problemPage(lang, raw, url, 404), 404);

      const v = viewFor(lang, aggregate.customer.slug, formatFor(lang));
      const body = await render(
        v.t.title(aggregate.customer.name),
        lang,
        <PageHeader v={v} aggregate={aggregate} otherLanguageHref={otherLanguage(aggregate.customer.slug, lang, url)} />,
        <>
          <Accounts v={v} aggregate={aggregate} />
          <Valuation v={v} aggregate={aggregate} />
          <Summary v={v} aggregate={aggregate} />
          <Charts v={v} aggregate={aggregate} />
          <Holdings v={v} aggregate={aggregate} />
          <TopDeals v={v} aggregate={aggregate} />
          <History v={v} aggregate={aggregate} state={state!} />
        </>,
      );
      return c.html(body, filters.success ? 200 : 400);
    }),
  )
  .onError(async (err, c) => {
    // The API's handler decides the status and logs; the person gets a page instead of JSON.
    const status = onError(err, c).status as ContentfulStatusCode;
    const url = new URL(c.req.url);
    const lang = pageLanguage(url.searchParams, c.req.header("Accept-Language"));
    return c.html(
      await problemPage(lang, c.req.param("slug") ?? "", url, status, status >= 500 ? c.get("requestId") : undefined),
      status,
    );
  });
