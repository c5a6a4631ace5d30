/**
 * Money as a bigint count of 10^-4 đồng, the unit of the source's numeric(20,4): every input
 * parses exactly and sums stay exact. Nothing here divides; rounding happens once, at output.
 */

const MONEY = /^-?\d+(?:\.\d{1,4})?$/;
const POW10 = [1n, 10n, 100n, 1000n, 10000n] as const;

/**
 * The value of `text` in 10^-4 đồng as a double, when Postgres's usual form (digits, a dot, 4
 * places) has at most 15 digits: below 10^15 < 2^51, so exact, and a sum of three stays below
 * 2^53, still exact. -1 otherwise (negative or long values take parseUnits).
 */
export function smallUnits(text: string): number {
  const n = text.length;
  if (n > 16 || n < 6 || text.charCodeAt(n - 5) !== 46) return -1;
  let value = 0;
  for (let i = 0; i < n; i++) {
    if (i === n - 5) continue;
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/** "20000000.0000" -> 200000000000n; "-1.005" -> -10050n. Throws on anything else. */
export function parseUnits(text: string): bigint {
  const small = smallUnits(text);
  if (small >= 0) return BigInt(small);
  if (!MONEY.test(text)) throw new SyntaxError(`Not a numeric(20,4) value: ${text}`);
  const dot = text.indexOf(".");
  const places = dot === -1 ? 0 : text.length - dot - 1;
  const digits = dot === -1 ? text : text.slice(0, dot) + text.slice(dot + 1);
  return BigInt(digits) * (POW10[4 - places] as bigint);
}

/** a / b rounded half away from zero; b > 0. */
export function roundDiv(a: bigint, b: bigint): bigint {
  // floor((2|a| + b) / 2b) is |a| / b rounded half up; bigint `/` truncates toward zero.
  return a < 0n ? -((b - 2n * a) / (2n * b)) : (2n * a + b) / (2n * b);
}

/**
 * The JSON number for `scaled / 10^places` (an already rounded integer). Goes through the
 * decimal string, so the result is the double nearest the decimal. Never returns -0.
 */
export function toNumber(scaled: bigint, places: number): number {
  if (scaled === 0n) return 0;
  if (places === 0) return Number(scaled);
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(places + 1, "0");
  const cut = digits.length - places;
  return Number(`${negative ? "-" : ""}${digits.slice(0, cut)}.${digits.slice(cut)}`);
}

/** |n| of a bigint (Math.abs takes numbers only). */
export const abs = (n: bigint): bigint => (n < 0n ? -n : n);

/** Greatest common divisor of a >= 0 and b >= 0, for keeping fractions reduced. */
export function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a;
}
