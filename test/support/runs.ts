/**
 * How many runs each property test gets: its full count (the `numRuns` written in the test, or
 * fast-check's 100) times VITE_PROPERTY_RUNS_PERCENT / 100, at least 1. `npm test` leaves the
 * variable unset: every property runs its full count. `npm run test:unit` sets 10 unless told
 * otherwise (test/vitest.unit.config.ts), for an inner loop of seconds. The seeds stay: a
 * property seeded alike draws the same cases in the same order, so fewer runs check the first
 * of the cases the full count checks, never others. Written out in full because Vite replaces
 * `import.meta.env.VITE_…` as such (VITE_* variables reach workerd through it).
 */
const percent = Number(import.meta.env.VITE_PROPERTY_RUNS_PERCENT ?? 100);
if (!Number.isFinite(percent) || percent <= 0)
  throw new RangeError(`VITE_PROPERTY_RUNS_PERCENT must be a positive number: ${import.meta.env.VITE_PROPERTY_RUNS_PERCENT}`);

/** The runs of a property whose full count is `full`. */
export const runs = (full: number): number => Math.max(1, Math.ceil((full * percent) / 100));
