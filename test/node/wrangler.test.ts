/**
 * wrangler.toml against what the code announces and requires: the brakes' `RateLimit-Policy`
 * (src/rate-limit.ts BRAKES) states each binding's `simple` limit and period, and every binding
 * the Worker refuses to run without (src/bindings.ts) is declared, under its name. And what
 * `npm start` shows of wrangler's output (scripts/wrangler-dev.ts): its bindings table once.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { bindingsOnce } from "../../scripts/wrangler-dev";
import { REQUIRED_BINDINGS } from "../../src/bindings";
import { BRAKES } from "../../src/brakes";

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

describe("wrangler dev's output through npm start", () => {
  const table = (mode: string) => [
    "Your Worker has access to the following bindings:",
    "Binding                                  Resource       Mode",
    `env.SYNC_QUEUE (sync-continuations)      Queue          ${mode}`,
    "",
  ];
  const run = (lines: string[]) => {
    const filter = bindingsOnce();
    return lines.flatMap((line) => filter(line));
  };

  it("shows the bindings table once when the registry update repeats it", () => {
    const start = ["Using secrets defined in .dev.vars", ...table("local"), "⎔ Starting local server..."];
    const again = ["⎔ Connection status updated", ...table("local"), "[wrangler:info] Ready on http://127.0.0.1:8787"];
    expect(run([...start, ...again])).toEqual([...start, "[wrangler:info] Ready on http://127.0.0.1:8787"]);
    // With colours, as on a terminal.
    const coloured = (lines: string[]) => lines.map((line) => (line ? `\x1b[2m${line}\x1b[22m` : line));
    expect(run([...start, ...coloured(again)])).toEqual([...start, ...coloured(again).slice(-1)]);
  });

  it("shows a table that changed, with the line that announced it", () => {
    const lines = [...table("local"), "⎔ Connection status updated", ...table("connected"), "ready"];
    expect(run(lines)).toEqual(lines);
    expect(run(["⎔ Connection status updated", "ready"])).toEqual(["⎔ Connection status updated", "ready"]);
  });
});
