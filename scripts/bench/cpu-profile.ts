/**
 * A CPU profile of the bench's own process while a phase syncs (`BENCH_CPU_PROFILE=<folder>`):
 * V8's sampling profiler through `node:inspector`, saved as `<phase>.cpuprofile` in the folder
 * (Chrome DevTools and speedscope open it) and summed up as the functions with the most self
 * time, so a bench's output says where the sync's compute went, not only how long it took.
 * The runs execute in Node here, as the rest of the bench does (scripts/bench/chain.ts); the
 * database server is another process in the scale bench, in this one in the sync bench, where
 * its own functions (scripts/local-db/) show among the Worker's.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const FOLDER = process.env.BENCH_CPU_PROFILE;
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** Microseconds between samples: fine enough for a step of a few seconds, cheap enough not to move it. */
const SAMPLING_US = 1000;
const SHOWN = 20;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface CpuSummary {
  /** Sampled milliseconds, idle excluded. */
  busyMs: number;
  /** The functions with the most self time, heaviest first. */
  top: { name: string; ms: number }[];
}

/** Runs `work`, profiled when BENCH_CPU_PROFILE names a folder; `summary` is null otherwise. */
export async function withCpuProfile<T>(
  phase: string,
  work: () => Promise<T>,
): Promise<{ result: T; summary: CpuSummary | null }> {
  if (!FOLDER) return { result: await work(), summary: null };
  const session = new Session();
  session.connect();
  try {
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: SAMPLING_US });
    await session.post("Profiler.start");
    const result = await work();
    const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: CpuProfile };
    mkdirSync(FOLDER, { recursive: true });
    writeFileSync(join(FOLDER, `${phase.replace(/[^a-z0-9]+/gi, "-")}.cpuprofile`), JSON.stringify(profile));
    return { result, summary: summarize(profile) };
  } finally {
    session.disconnect();
  }
}

/** Self time per function (name and where it is defined), idle left out. */
function summarize(profile: CpuProfile): CpuSummary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === "(idle)" || frame.functionName === "(program)") return;
    const us = profile.timeDeltas[i] ?? 0;
    busy += us;
    // The bench runs TypeScript transpiled on the fly: the file says where, its line would not.
    const where = frame.url ? ` ${shortUrl(frame.url)}` : "";
    const name = `${frame.functionName || "(anonymous)"}${where}`;
    self.set(name, (self.get(name) ?? 0) + us);
  });
  const top = [...self]
    .sort((a, b) => b[1] - a[1])
    .slice(0, SHOWN)
    .map(([name, us]) => ({ name, ms: us / 1000 }));
  return { busyMs: busy / 1000, top };
}

function shortUrl(url: string): string {
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  return path.startsWith(ROOT) ? relative(ROOT, path) : path.replace(/^.*node_modules\//, "");
}

/** A phase's summary as lines of the bench's output. */
export function printCpuSummary(phase: string, summary: CpuSummary): string[] {
  return [
    `- ${phase}: ${(summary.busyMs / 1000).toFixed(2)} s sampled busy; self time:`,
    ...summary.top.map((f) => `  - ${(f.ms / 1000).toFixed(2)} s ${f.name}`),
  ];
}
