/**
 * What every part of the page reads about the request it renders for: the reader's language
 * (detected once per request by the route, src/routes/page.tsx), its words and formatters, and
 * the customer's slug for links. Provided once around the document by the route and read with
 * useView(), so no component passes it on by hand.
 */
import { createContext, useContext } from "hono/jsx";
import { vietnamDate } from "./clock";
import { type Format, formatFor } from "./format";
import type { PerformanceRange } from "../schemas";
import { type Lang, MESSAGES, type Messages } from "./i18n";

export interface View {
  lang: Lang;
  t: Messages;
  f: Format;
  slug: string;
  /** The performance range the reader chose, when not the default: the history's links and form keep it. */
  range?: PerformanceRange;
  /** Today's date in Vietnam when the page is made (src/page/clock.ts): what "today" on the page means. */
  today: string;
}

/** No default: a component rendered outside the route's provider is a bug, not a Vietnamese page. */
export const ViewContext = createContext<View | undefined>(undefined);

export function useView(): View {
  const view = useContext(ViewContext);
  if (!view) throw new Error("page component rendered outside ViewContext.Provider");
  return view;
}

export const viewFor = (lang: Lang, slug: string, range?: PerformanceRange, now: number = Date.now()): View => ({
  lang,
  t: MESSAGES[lang],
  f: formatFor(lang),
  slug,
  range,
  today: vietnamDate(now),
});
