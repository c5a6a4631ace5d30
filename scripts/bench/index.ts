/**
 * `npm run bench [-- domain|sync|http ...]`: every benchmark, or the ones named (`reconcile`
 * only when named: it loads a million trades). Each prints its figures beside a floor measured
 * in the same run.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const all = ["domain", "sync", "http"] as const;
/** Long runs on a large book, only when named. */
const optIn = ["reconcile"] as const;
const chosen = process.argv.slice(2).filter((a) => ([...all, ...optIn] as readonly string[]).includes(a));
const run = chosen.length ? chosen : [...all];

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
  } else {
    const { runHttpBenchmark, printHttpTable } = await import("./http");
    console.log(printHttpTable(await runHttpBenchmark()));
  }
}
