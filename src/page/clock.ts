/**
 * The customer's calendar: Vietnam's (Asia/Ho_Chi_Minh, UTC+7 all year, no daylight saving), so
 * the page calls a session "today" exactly when it is today where the customer lives, and a
 * page cached before midnight there is never served after it (src/routes/page.tsx).
 */
const OFFSET_MS = 7 * 3_600_000;
const DAY_MS = 86_400_000;

/** The date in Vietnam at instant `now` (ms since the epoch), YYYY-MM-DD. */
export function vietnamDate(now: number): string {
  return new Date(now + OFFSET_MS).toISOString().slice(0, 10);
}

/** The first midnight in Vietnam after instant `now`, in ms since the epoch. */
export function nextVietnamMidnight(now: number): number {
  return Math.floor((now + OFFSET_MS) / DAY_MS + 1) * DAY_MS - OFFSET_MS;
}
