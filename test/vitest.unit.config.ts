/**
 * `npm run test:unit`: the inner loop. The suites that need no database server, no workerd and
 * no browser (the P&L engine, the calendar dates the schemas take, the demo book's generator, the
 * cron schedule) in plain Node, with no global setup, so a change to a domain rule meets its
 * first test in seconds. They share their workers, as in workerd: none leaves state behind. The same files
 * still run in workerd under `npm test` (the "workers" project of test/vitest.config.ts, whose
 * include covers them), which stays the one command that runs everything. Here each property
 * test runs a tenth of its full count (test/support/runs.ts), the same seeds' first cases;
 * `npm test` runs them all. VITE_PROPERTY_RUNS_PERCENT=100 npm run test:unit runs them all here.
 */
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: fileURLToPath(new URL("..", import.meta.url)),
  test: {
    name: "unit",
    environment: "node",
    include: ["test/domain/**/*.test.ts", "test/api/dates.test.ts", "test/demo/generate.test.ts", "test/sync/schedule.test.ts"],
    isolate: false,
    setupFiles: ["./test/support/decimal.ts", "./test/support/seed.ts"],
    restoreMocks: true,
    env: { VITE_PROPERTY_RUNS_PERCENT: process.env.VITE_PROPERTY_RUNS_PERCENT ?? "10" },
    testTimeout: 30_000,
  },
});
