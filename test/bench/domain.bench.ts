/**
 * Run by `npm run bench` (never by `npm test`): the P&L engine on one customer with 100,000
 * trades, inside workerd, beside the floor of one plain pass over the same array.
 */
import { it } from "vitest";
import { runDomainBenchmark } from "./domain.bench-case";

it("computes the metrics of one customer with 100,000 trades", () => {
  const { trades, computeMs, floorMs } = runDomainBenchmark();
  console.log(
    `P&L engine in workerd: ${trades} trades, computeMetrics ${computeMs.toFixed(1)} ms (median of 5), ` +
      `floor (one plain pass) ${floorMs.toFixed(1)} ms, ratio ${(computeMs / Math.max(floorMs, 0.1)).toFixed(1)}x`,
  );
});
