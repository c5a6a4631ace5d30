/**
 * A small seeded PRNG (sfc32) for demo data: the same seed gives the same book, so a demo or a
 * benchmark can be reproduced. Not for anything secret: customer slugs come from newSlug().
 */

/** splitmix32's finaliser: a bijection on 32-bit integers that spreads nearby seeds apart. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  return (x ^ (x >>> 15)) >>> 0;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

function hex32(word: number): string {
  return HEX[word >>> 24]! + HEX[(word >>> 16) & 255]! + HEX[(word >>> 8) & 255]! + HEX[word & 255]!;
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /**
   * One independent stream per (seed, stream). Both halves of the state come from bijections,
   * so distinct pairs start from distinct states: per-customer streams never repeat each
   * other's uuids, and a customer's data does not depend on how many customers came before.
   */
  constructor(seed: number, stream: number) {
    this.a = mix32(seed >>> 0);
    this.b = mix32((seed >>> 0) ^ 0x9e3779b9);
    this.c = mix32(stream >>> 0);
    this.d = mix32((stream >>> 0) ^ 0x85ebca6b);
    for (let i = 0; i < 12; i++) this.next();
  }

  /** The next 32-bit unsigned integer. */
  next(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  float(): number {
    return this.next() / 4294967296;
  }

  /** Uniform integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.float() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** k distinct items in random order (partial Fisher–Yates on a copy). */
  sample<T>(items: readonly T[], k: number): T[] {
    const copy = items.slice();
    for (let i = 0; i < k; i++) {
      const j = i + Math.floor(this.float() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, k);
  }

  /** Standard normal (Box–Muller). */
  gauss(): number {
    const u = 1 - this.float();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.float());
  }

  /** A well-formed RFC 4122 version 4 uuid whose 122 random bits come from this stream. */
  uuid(): string {
    const h = hex32(this.next()) + hex32(this.next()) + hex32(this.next()) + hex32(this.next());
    const variant = "89ab"[parseInt(h[16]!, 16) & 3];
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20)}`;
  }
}
