/**
 * BENCHMARK_CODE: the index the performance figures compare with. It is held to the rule the
 * sync holds every stock code to (src/domain/stock-code.ts), so a code whose closes the sync
 * would set aside fails the configuration like any other bad setting: named, never echoed.
 */
import { describe, expect, it } from "vitest";
import { ConfigError, type Env, getConfig } from "../../src/env";
import { Client } from "../support/worker";

/** Nothing listens here: a configuration error is raised before any database is reached. */
const env = (overrides: Partial<Env> = {}): Env => ({ DATABASE_URL: "postgres://app:local@127.0.0.1:9/none", ...overrides });

describe("BENCHMARK_CODE", () => {
  it("is VN-Index unless set", () => {
    expect(getConfig(env()).BENCHMARK_CODE).toBe("VNINDEX");
  });

  it("takes any code the sync accepts: 1 to 10 uppercase letters or digits", () => {
    for (const code of ["VN30", "HNXINDEX", "E1VFVN30", "A", "0123456789"])
      expect(getConfig(env({ BENCHMARK_CODE: code })).BENCHMARK_CODE, code).toBe(code);
  });

  it("refuses a code the sync would set aside, naming the key and not the value", () => {
    for (const code of ["vnindex", "VN-INDEX", "VN INDEX", "", "ABCDEFGHIJK", "VNİNDEX"]) {
      const attempt = () => getConfig(env({ BENCHMARK_CODE: code }));
      expect(attempt, JSON.stringify(code)).toThrow(ConfigError);
      expect(attempt, JSON.stringify(code)).toThrow("invalid configuration: BENCHMARK_CODE");
    }
  });

  it("makes the Worker answer 500 when it is bad, as any configuration error", async () => {
    const broken = await new Client(env({ BENCHMARK_CODE: "vn-index" })).get("/api/brokers");
    expect(broken.status).toBe(500);
    expect(broken.body).toEqual({
      success: false,
      error: "Internal Server Error",
      request_id: broken.headers.get("X-Request-Id"),
    });
    expect(broken.text).not.toContain("vn-index");
  });
});
