/** The solver's shared constants: the tolerance, the range of y, the precision ladder, the walk's bound. */

export const PLACES = 4;
/** |f| below sum |CF| / 10^50 counts as 0 (docs/performance.md, `mwr`). */
export const TOLERANCE = 10n ** 50n;
export const Y_MAX = 1_000_000n;
/** The precisions (bits) a decision is tried at, in turn. */
export const LADDER = [128, 256, 512, 1024, 2048, 4096, 8192];
/** The walk's bound: far above what any book of flows needs (a few dozen steps), so never reached but by construction. */
export const MAX_STEPS = 5000;
