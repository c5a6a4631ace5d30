/**
 * Run by `npm run bench` (never by `npm test`): the P&L engine on one customer with 100,000
 * trades, inside workerd, beside the floor of one plain pass over the same array.
 */
import { it } from "vitest";
import { runDomainBenchmark } from "./domain.bench-case";

it("computes the metrics of one customer with 100,000 trades", () => {
  const r = runDomainBenchmark();
  const ratio = (ms: number, floor: number) => (ms / Math.max(floor, 0.1)).toFixed(1);
  console.log(
    [
      `P&L engine in workerd (median of 5):`,
      `  realistic, ${r.trades} trades: computeMetrics ${r.computeMs.toFixed(1)} ms, floor (one plain pass) ${r.floorMs.toFixed(1)} ms, ratio ${ratio(r.computeMs, r.floorMs)}x`,
      `  worst case (coprime quantities, 4-decimal fees), ${r.trades} trades: computeMetrics ${r.worstMs.toFixed(1)} ms, floor ${r.worstFloorMs.toFixed(1)} ms, ratio ${ratio(r.worstMs, r.worstFloorMs)}x`,
      `  holdingPartial, one holding of ${r.trades} trades: ${r.partialMs.toFixed(1)} ms`,
      `  one new trade on that holding, continued from its partial: ${r.continueMs.toFixed(2)} ms`,
      `  mergePartials of 200 stored partials: ${r.mergeMs.toFixed(2)} ms`,
    ].join("\n"),
  );
});
