/**
 * `npm run bench [-- domain|sync|http|reconcile|scale ...]`: the default benchmarks, or the
 * ones named. Each prints its figures beside a floor measured in the same run. `reconcile` (a
 * million trades) and `scale` (10,000,000 trades by default, `-- scale --trades N` for another
 * size) take many minutes, so they only run when named; `again` runs one more phase on a book
 * they kept (scripts/bench/again.ts).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const defaults = ["domain", "sync", "http"] as const;
const known = [...defaults, "reconcile", "scale", "again"];
const args = process.argv.slice(2);
const chosen = args.filter((a) => known.includes(a));
const run = chosen.length ? chosen : [...defaults];

for (const name of run) {
  console.log(`\n== ${name}`);
  if (name === "domain") {
    // Inside workerd, through the Workers Vitest integration, like the tests.
    const r = spawnSync("vitest", ["run", "--config", "test/vitest.config.ts", "--project", "workers"], {
      cwd: root,
      stdio: "inherit",
      env: { ...process.env, BENCH: "1" },
    });
    if (r.status !== 0) process.exit(r.status ?? 1);
  } else if (name === "reconcile") {
    const { runReconcileBenchmark, printReconcileTable } = await import("./reconcile");
    console.log(printReconcileTable(await runReconcileBenchmark()));
  } else if (name === "sync") {
    const { runSyncBenchmark, printSyncTable } = await import("./sync");
    console.log(printSyncTable(await runSyncBenchmark()));
  } else if (name === "again") {
    const { runAgain } = await import("./again");
    console.log(await runAgain(args));
  } else if (name === "scale") {
    const { runScaleBenchmark, printScaleTable, scaleOptions } = await import("./scale");
    console.log(printScaleTable(await runScaleBenchmark(scaleOptions(args))));
  } else {
    const { runHttpBenchmark, printHttpTable } = await import("./http");
    console.log(printHttpTable(await runHttpBenchmark()));
  }
}
