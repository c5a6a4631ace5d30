/**
 * A tiny exact decimal: a bigint holding the value times 10^18. Inputs (Postgres `numeric` with
 * 4 places) parse exactly; sums and differences are plain bigint `+`/`-` and stay exact; only a
 * division rounds, at the 18th place, which is far below anything the output shows. Values stay
 * bare bigints (no wrapper object) so 100k trades cost no extra allocations.
 */
export type Decimal = bigint;

const PLACES = 18;
const SCALE = 10n ** BigInt(PLACES);

export const ZERO: Decimal = 0n;

const DECIMAL = /^-?\d+(?:\.\d{1,18})?$/;
/** 10^0 .. 10^18, so scaling needs no exponentiation per call. */
const POW10 = Array.from({ length: PLACES + 1 }, (_, i) => 10n ** BigInt(i));

/** Parses a decimal string such as "20000000.0000" or "-1.005" exactly. */
export function parseDecimal(text: string): Decimal {
  if (text === "0.0000") return ZERO; // Postgres's zero, on every buy's tax: skip the work
  if (!DECIMAL.test(text)) throw new SyntaxError(`Not a decimal: ${text}`);
  const dot = text.indexOf(".");
  const places = dot === -1 ? 0 : text.length - dot - 1;
  return BigInt(text.replace(".", "")) * pow10(PLACES - places);
}

export function fromInt(n: number): Decimal {
  return BigInt(n) * SCALE;
}

export function mulInt(a: Decimal, n: number): Decimal {
  return a * BigInt(n);
}

/** a / n, rounded half away from zero at the internal scale. */
export function divInt(a: Decimal, n: number): Decimal {
  return divRound(a, BigInt(n));
}

/** a / b for two decimals, rounded half away from zero at the internal scale. */
export function div(a: Decimal, b: Decimal): Decimal {
  return divRound(a * SCALE, b);
}

/**
 * The JSON number for `a` rounded half away from zero to `places` (0..18) decimal places.
 * Goes through the decimal string, so the result is the double nearest the rounded decimal
 * (dividing a huge bigint by 10^places in floats would round twice). Never returns -0.
 */
export function toNumber(a: Decimal, places: number): number {
  const rounded = divRound(a, pow10(PLACES - places));
  if (rounded === 0n) return 0;
  const digits = abs(rounded).toString().padStart(places + 1, "0");
  const sign = rounded < 0n ? "-" : "";
  const cut = digits.length - places;
  return Number(places === 0 ? sign + digits : `${sign}${digits.slice(0, cut)}.${digits.slice(cut)}`);
}

/** Integer division rounding half away from zero (bigint `/` truncates toward zero). */
function divRound(a: bigint, b: bigint): bigint {
  if (b < 0n) return divRound(-a, -b);
  // For b > 0: floor((2|a| + b) / 2b) is |a| / b rounded half up.
  return a < 0n ? -((b - 2n * a) / (2n * b)) : (2n * a + b) / (2n * b);
}

function pow10(n: number): bigint {
  return POW10[n] ?? 10n ** BigInt(n);
}

function abs(a: Decimal): Decimal {
  return a < 0n ? -a : a;
}
