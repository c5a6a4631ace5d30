/**
 * The order the files start in. Vitest starts first the files that took longest in the last
 * run on this machine, so short ones fill the end; a fresh clone has no such record and falls
 * back to file size, which started the slow sync suites last, running on while the other slot
 * sat idle. These are the files known to be slow: within their project they start first, in
 * this order, whether or not a record exists; the rest keep Vitest's order.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

const SLOW = [
  "test/sync/reconcile",
  "test/sync/scheduled",
  "test/sync/random",
  "test/domain/properties",
  "test/security/fuzz",
  "test/sync/lifecycle",
  "test/sync/metrics",
  "test/security/outage",
  "test/sync/cursor",
  "test/sync/corporate-actions",
  "test/cache/invalidation",
  "test/security/enumeration",
  "test/demo/served",
];

const rank = (spec: TestSpecification) => {
  const index = SLOW.findIndex((prefix) => spec.moduleId.includes(`/${prefix}.`));
  return index < 0 ? SLOW.length : index;
};

export class SlowFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's order runs project by project; reorder only inside each project's run of files.
    const runs: TestSpecification[][] = [];
    for (const spec of await super.sort(files)) {
      const last = runs[runs.length - 1];
      if (last && last[0]?.project === spec.project) last.push(spec);
      else runs.push([spec]);
    }
    return runs.flatMap((run) => run.sort((a, b) => rank(a) - rank(b)));
  }
}
