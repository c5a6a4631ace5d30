/// <reference path="./worker-configuration.d.ts" />
/**
 * The Worker's bindings and the configuration derived from them, validated once per env
 * object (an isolate sees the same env on every request) rather than on every request.
 */
import { z } from "zod";
import { CronError, parseCron } from "./cron";
import { STOCK_CODE } from "./domain/stock-code";

/**
 * The bindings of wrangler.toml and the secrets named in .dev.vars.example, as `wrangler types`
 * generates them into src/worker-configuration.d.ts (`npm run types`; CI checks it is current).
 * All but DATABASE_URL may be missing: a secret may not be set, and tests leave bindings out;
 * getConfig validates what is there once.
 */
export type Env = Partial<WorkerBindings> & {
  DATABASE_URL: string;
  /** Optional settings that neither wrangler.toml nor .dev.vars.example sets. */
  DATABASE_TIMEOUT_MS?: string;
  CF_ZONE_ID?: string;
  CF_API_TOKEN?: string;
  PUBLIC_ORIGIN?: string;
};

const optionalSecret = z
  .string()
  .optional()
  .transform((v) => (v && v.trim() !== "" ? v : undefined));

const configSchema = z.object({
  DATABASE_URL: z.string().url(),
  SOURCE_DATABASE_URL: optionalSecret.pipe(z.string().url().optional()),
  ADMIN_API_KEY: optionalSecret,
  CACHE_TTL_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  SYNC_OVERLAP_SECONDS: z.coerce.number().int().min(0).max(86_400).default(300),
  /** The Cron Trigger (one of wrangler.toml's crons, as written there) that runs the reconciliation. */
  SYNC_RECONCILE_CRON: z
    .string()
    .default("0 19 * * *")
    .superRefine((v, ctx) => {
      try {
        parseCron(v);
      } catch (err) {
        if (!(err instanceof CronError)) throw err;
        ctx.addIssue({ code: "custom", message: err.message });
      }
    }),
  /**
   * The index GET /api/performance/:slug sets beside a portfolio, booked in stock_prices like a
   * stock; the dates of its closes are the trading calendar of the figures. Held to the rule every stock
   * code is (src/domain/stock-code.ts): the sync would set aside the closes of any other code.
   */
  BENCHMARK_CODE: z.string().regex(STOCK_CODE, "must be 1 to 10 uppercase letters or digits").default("VNINDEX"),
  CORS_ORIGINS: z
    .string()
    .default("*")
    .transform((v) =>
      v
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean),
    ),
  /** How long an API request may wait on the target database before it answers 503. */
  DATABASE_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  CF_ZONE_ID: optionalSecret,
  CF_API_TOKEN: optionalSecret,
  // The origin the API is served on; cache keys live under it, so a cron run (which has no
  // request to take it from) needs it to drop this data centre's entries after a sync.
  PUBLIC_ORIGIN: optionalSecret.pipe(
    z
      .string()
      .url()
      .transform((u) => new URL(u).origin)
      .optional(),
  ),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override name = "ConfigError";
}

const parsed = new WeakMap<Env, Config>();

/** The validated configuration; throws ConfigError naming the bad keys (never their values). */
export function getConfig(env: Env): Config {
  let config = parsed.get(env);
  if (!config) {
    const result = configSchema.safeParse(env);
    if (!result.success) {
      const keys = [...new Set(result.error.issues.map((i) => i.path.join(".")))];
      throw new ConfigError(`invalid configuration: ${keys.join(", ")}`);
    }
    config = result.data;
    parsed.set(env, config);
  }
  return config;
}
