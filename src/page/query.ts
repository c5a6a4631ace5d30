/**
 * The page's query string: the filters of the trade history (GET /api/transactions/:slug), validated by the API's own
 * HistoryQuery schema (`lang` is the page's language detector's, in src/routes/page.tsx). A
 * plain HTML form submits every field, the empty ones too, so an empty value means "no filter"
 * here, where the API would call it invalid.
 */
import { HistoryQuery, PerformanceQuery, type PerformanceRange } from "../schemas";
import type { Lang } from "./i18n";

export const FILTERS = ["page", "per_page", "broker", "stock_code", "type", "start_date", "end_date"] as const;
export type Filter = (typeof FILTERS)[number];

/** Each filter's first non-empty value; unknown parameters are ignored, as in the API. */
export function filterParams(search: URLSearchParams): URLSearchParams {
  const kept = new URLSearchParams();
  for (const name of FILTERS) {
    const value = search.getAll(name).find((v) => v !== "");
    if (value !== undefined) kept.set(name, name === "start_date" || name === "end_date" ? isoDate(value) : value);
  }
  return kept;
}

const TYPED = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * A date as a person types it in the form, dd/mm/yyyy (the page's own order in both languages,
 * not the browser's), as the API's YYYY-MM-DD; anything else as it came, YYYY-MM-DD from a link
 * included, for the history schema to accept or refuse (31/02/2024 is 2024-02-31, refused).
 */
export function isoDate(value: string): string {
  const typed = TYPED.exec(value);
  if (!typed) return value;
  const [, day, month, year] = typed;
  return `${year}-${month!.padStart(2, "0")}-${day!.padStart(2, "0")}`;
}

/** A YYYY-MM-DD date as the form shows it, dd/mm/yyyy; anything else (an invalid value) as it came. */
export function typedDate(value: string | undefined): string {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value ?? "");
  return iso ? `${iso[3]}/${iso[2]}/${iso[1]}` : (value ?? "");
}

export interface FilterIssue {
  field: Filter;
  /** The start date is after the end date, rather than not a date at all. */
  order: boolean;
}

export type ParsedFilters =
  | { success: true; query: HistoryQuery }
  | { success: false; issues: FilterIssue[]; values: Partial<Record<Filter, string>> };

export function parseFilters(params: URLSearchParams): ParsedFilters {
  const values = Object.fromEntries(params) as Partial<Record<Filter, string>>;
  const result = HistoryQuery.safeParse(values);
  if (result.success) return { success: true, query: result.data };
  const issues = result.error.issues.map((issue) => ({ field: String(issue.path[0]) as Filter, order: issue.code === "custom" }));
  return { success: false, issues, values };
}

/** A link to this page in this language with these filters (and the chosen range); defaults are left out. */
export function pageHref(slug: string, lang: Lang, query: Partial<HistoryQuery>, range?: PerformanceRange): string {
  const params = new URLSearchParams({ lang });
  if (range !== undefined && range !== DEFAULT_RANGE) params.set("range", range);
  for (const name of FILTERS) {
    const value = query[name];
    if (value === undefined || (name === "page" && value === 1) || (name === "per_page" && value === 10)) continue;
    params.set(name, String(value));
  }
  return `/c/${encodeURIComponent(slug)}?${params}`;
}

/** The ranges the performance section links to, shortest first; any of the API's ranges is accepted. */
export const RANGE_LINKS = ["1m", "3m", "6m", "ytd", "1y", "3y", "5y", "max"] as const satisfies readonly PerformanceRange[];

/** The chosen range when `range` is absent or empty, as in the API. */
export const DEFAULT_RANGE: PerformanceRange = "max";

export type ParsedRange = { success: true; range: PerformanceRange } | { success: false; value: string };

/** `range` as the API's own PerformanceQuery validates it (exactly lowercase); an empty value is the default. */
export function parseRange(search: URLSearchParams): ParsedRange {
  const value = search.getAll("range").find((v) => v !== "");
  if (value === undefined) return { success: true, range: DEFAULT_RANGE };
  const result = PerformanceQuery.safeParse({ range: value });
  return result.success && result.data.range ? { success: true, range: result.data.range } : { success: false, value };
}

/** A link to this page in this language over another range (the history's filters are left out). */
export function rangeHref(slug: string, lang: Lang, range: PerformanceRange): string {
  const params = new URLSearchParams({ lang });
  if (range !== DEFAULT_RANGE) params.set("range", range);
  return `/c/${encodeURIComponent(slug)}?${params}`;
}
