/**
 * Every property test draws from one fixed seed. Unseeded, each run drew new books, so a rare
 * bad draw failed one CI run in many and could not be replayed (a counterexample of the
 * money-weighted return surfaced exactly so, test/domain/returns.test.ts). To explore new
 * draws on purpose, change the seed locally and keep what it finds as fixed cases.
 */
import fc from "fast-check";
import { runs } from "./runs";

/** A property that names no `numRuns` gets fast-check's 100, scaled like the others. */
fc.configureGlobal({ seed: 20261127, numRuns: runs(100) });
