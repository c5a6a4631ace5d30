/**
 * Where a run's time went, per step of the run and part of the step: waiting for a read,
 * computing in the Worker, waiting for a write. Kept by the run's budget and handed back with its
 * outcome (src/sync/run.ts), for the benchmarks to print beside their figures
 * (scripts/bench/chain.ts), so the next regression shows where it is; the report the API
 * documents does not carry it.
 *
 * The parts are the time the run spent on them, not the databases' own time: a batch read ahead
 * while the one before it is stored counts only for the wait it left (src/sync/read-ahead.ts).
 */
export type ProfileStep = "open" | "data" | "holdings" | "customers" | "close";
export type ProfilePart = "read" | "compute" | "write";
export type ProfileFigures = Partial<Record<ProfileStep, Partial<Record<ProfilePart, number>>>>;

export class Profile {
  readonly figures: ProfileFigures = {};

  add(step: ProfileStep, part: ProfilePart, ms: number): void {
    const parts = (this.figures[step] ??= {});
    parts[part] = (parts[part] ?? 0) + ms;
  }

  async time<T>(step: ProfileStep, part: ProfilePart, work: () => Promise<T>): Promise<T> {
    const started = performance.now();
    try {
      return await work();
    } finally {
      this.add(step, part, performance.now() - started);
    }
  }

  timeSync<T>(step: ProfileStep, part: ProfilePart, work: () => T): T {
    const started = performance.now();
    try {
      return work();
    } finally {
      this.add(step, part, performance.now() - started);
    }
  }
}
