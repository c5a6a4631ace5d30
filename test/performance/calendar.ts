/**
 * Calendar dates as day numbers (days since 1970-01-01), proleptic Gregorian, for every year
 * from 0001 to 9999: JavaScript's Date maps years below 100 to the 1900s, so the reference
 * counts days itself (H. Hinnant's days_from_civil / civil_from_days).
 */

export function dayNumber(date: string): number {
  const [y0, m, d] = date.split("-").map(Number) as [number, number, number];
  const y = m <= 2 ? y0 - 1 : y0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

export function dateOf(day: number): string {
  const z = day + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yoe + era * 400 + (m <= 2 ? 1 : 0);
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

export const addDays = (date: string, days: number): string => dateOf(dayNumber(date) + days);

export const daysBetween = (from: string, to: string): number => dayNumber(to) - dayNumber(from);

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const monthDays = (y: number, m: number) => [31, isLeap(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1]!;

/** `date` minus `months` calendar months, clamped to the month's last day (03-31 - 1 = 02-28). */
export function minusMonths(date: string, months: number): string {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const index = y * 12 + (m - 1) - months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const day = Math.min(d, monthDays(year, month));
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The Monday that starts `date`'s Monday-to-Sunday week, as a day number (1970-01-01 was a Thursday). */
export const mondayOf = (date: string): number => {
  const day = dayNumber(date);
  return day - ((((day + 3) % 7) + 7) % 7);
};
