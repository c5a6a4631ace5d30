/**
 * The page's two languages: Vietnamese, the customers' own, unless the link asks for English
 * (?lang=en) or the browser prefers English to Vietnamese (Accept-Language). Which one a request
 * gets is decided once, by the page's language detector (src/routes/page.tsx). Each language's
 * words are their own object, in ./words/: ./words/vi.ts, whose keys are `Words`, and
 * ./words/en.ts, which must give every one of them.
 */
import { en } from "./words/en";
import { vi, type Words } from "./words/vi";

export type Lang = "vi" | "en";

export const LANGS: readonly Lang[] = ["vi", "en"];

/** Every string the page shows, per language. */
export const MESSAGES: Record<Lang, Words> = { vi, en };

export type Messages = Words;
