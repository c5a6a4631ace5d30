/**
 * wrangler.toml against what the code announces and requires: the brakes' `RateLimit-Policy`
 * (src/rate-limit.ts BRAKES) states each binding's `simple` limit and period, and every binding
 * the Worker refuses to run without (src/bindings.ts) is declared, under its name.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { REQUIRED_BINDINGS } from "../../src/bindings";
import { BRAKES } from "../../src/rate-limit";

const toml = readFileSync(new URL("../../wrangler.toml", import.meta.url), "utf8");

/** Each `[[ratelimits]]` block's name with its `simple` settings. */
function rateLimits(): Record<string, { limit: number; period: number }> {
  const found: Record<string, { limit: number; period: number }> = {};
  for (const block of toml.split("[[ratelimits]]").slice(1)) {
    const name = /^name\s*=\s*"([^"]+)"/m.exec(block)?.[1];
    const simple = /^simple\s*=\s*\{\s*limit\s*=\s*(\d+)\s*,\s*period\s*=\s*(\d+)\s*\}/m.exec(block);
    if (name && simple) found[name] = { limit: Number(simple[1]), period: Number(simple[2]) };
  }
  return found;
}

describe("wrangler.toml", () => {
  it("declares the limits each brake's RateLimit-Policy announces", () => {
    const limits = rateLimits();
    const policy = (name: string) => `;q=${limits[name]!.limit};w=${limits[name]!.period}`;
    expect(BRAKES.lookup.policy.endsWith(policy("NOT_FOUND_LIMITER"))).toBe(true);
    expect(BRAKES.admin_key.policy.endsWith(policy("ADMIN_KEY_LIMITER"))).toBe(true);
  });

  it("declares every binding the Worker refuses to run without", () => {
    const declared = [...Object.keys(rateLimits()), ...[...toml.matchAll(/^binding\s*=\s*"([^"]+)"/gm)].map((m) => m[1])];
    for (const name of REQUIRED_BINDINGS) expect(declared, name).toContain(name);
  });
});
