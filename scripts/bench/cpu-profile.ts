/**
 * A CPU profile of the bench's own process while a phase syncs (`BENCH_CPU_PROFILE=<folder>`):
 * V8's sampling profiler through `node:inspector`, saved as `<phase>.cpuprofile` in the folder
 * (Chrome DevTools and speedscope open it) and summed up as the functions with the most self
 * time, so a bench's output says where the sync's compute went, not only how long it took; and
 * its allocations, saved as `<phase>.heapprofile` and summed up by allocating function.
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
/** Microseconds between CPU samples: a thousand a second, enough for steps that take seconds. */
const SAMPLING_US = 1000;
/**
 * Bytes between allocation samples, on average: a 10M trading day allocates ~10 GB, and at V8's
 * default (32 kB) the profile it hands back would not fit the bench's capped heap.
 */
const ALLOCATION_SAMPLING_BYTES = 256 * 1024;
const SHOWN = 15;

interface CallFrame {
  functionName: string;
  url: string;
}
interface CpuProfile {
  nodes: { id: number; callFrame: CallFrame }[];
  samples: number[];
  timeDeltas: number[];
}
interface HeapNode {
  id: number;
  callFrame: CallFrame;
  children: HeapNode[];
}
interface HeapProfile {
  head: HeapNode;
  samples: { nodeId: number; size: number }[];
}

export interface CpuSummary {
  /** Sampled milliseconds, idle excluded. */
  busyMs: number;
  /** The functions with the most self time, heaviest first. */
  top: { name: string; ms: number }[];
  /** Bytes allocated while it ran (sampled, collected objects included). */
  allocatedBytes: number;
  /** The functions that allocated the most, heaviest first. */
  allocators: { name: string; bytes: number }[];
}

/**
 * Runs `work`, profiled when BENCH_CPU_PROFILE names a folder; `summary` is null otherwise.
 * Besides the CPU, V8's sampling heap profiler counts what each function allocates, garbage
 * included: under the bench's capped heap, collecting it is a large share of the CPU.
 */
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
    await session.post("HeapProfiler.enable");
    await session.post("HeapProfiler.startSampling", {
      samplingInterval: ALLOCATION_SAMPLING_BYTES,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: true,
    } as never);
    await session.post("Profiler.start");
    const result = await work();
    const { profile } = (await session.post("Profiler.stop")) as unknown as { profile: CpuProfile };
    const { profile: heap } = (await session.post("HeapProfiler.stopSampling")) as unknown as { profile: HeapProfile };
    mkdirSync(FOLDER, { recursive: true });
    const file = join(FOLDER, phase.replace(/[^a-z0-9]+/gi, "-"));
    writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile));
    writeFileSync(`${file}.heapprofile`, JSON.stringify(heap));
    return { result, summary: { ...summarizeCpu(profile), ...summarizeAllocations(heap) } };
  } finally {
    session.disconnect();
  }
}

/** Self time per function, idle left out. */
function summarizeCpu(profile: CpuProfile): Pick<CpuSummary, "busyMs" | "top"> {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const frame = nodes.get(id)!.callFrame;
    if (frame.functionName === "(idle)" || frame.functionName === "(program)") return;
    const us = profile.timeDeltas[i] ?? 0;
    busy += us;
    const name = frameName(frame);
    self.set(name, (self.get(name) ?? 0) + us);
  });
  return { busyMs: busy / 1000, top: heaviest(self).map(([name, us]) => ({ name, ms: us / 1000 })) };
}

/** Sampled bytes per allocating function. */
function summarizeAllocations(profile: HeapProfile): Pick<CpuSummary, "allocatedBytes" | "allocators"> {
  const names = new Map<number, string>();
  const visit = (node: HeapNode) => {
    names.set(node.id, frameName(node.callFrame));
    for (const child of node.children) visit(child);
  };
  visit(profile.head);
  const bytes = new Map<string, number>();
  let total = 0;
  for (const { nodeId, size } of profile.samples) {
    const name = names.get(nodeId)!;
    bytes.set(name, (bytes.get(name) ?? 0) + size);
    total += size;
  }
  return { allocatedBytes: total, allocators: heaviest(bytes).map(([name, b]) => ({ name, bytes: b })) };
}

const heaviest = (by: Map<string, number>) => [...by].sort((a, b) => b[1] - a[1]).slice(0, SHOWN);

/** A function by name and file: the bench runs TypeScript transpiled on the fly, so its line would not say where. */
function frameName(frame: CallFrame): string {
  return `${frame.functionName || "(anonymous)"}${frame.url ? ` ${shortUrl(frame.url)}` : ""}`;
}

function shortUrl(url: string): string {
  const path = url.startsWith("file://") ? fileURLToPath(url) : url;
  return path.startsWith(ROOT) ? relative(ROOT, path) : path.replace(/^.*node_modules\//, "");
}

/**
 * The phases' summaries as a section of a bench's output, after a blank line and its heading;
 * none when no phase was profiled. `note` says what else the process held.
 */
export function printCpuSection(phases: readonly (readonly [string, CpuSummary | null])[], note = ""): string[] {
  const lines = phases.flatMap(([phase, summary]) => (summary ? printCpuSummary(phase, summary) : []));
  return lines.length ? ["", `Where the bench process's CPU went per phase (${note}BENCH_CPU_PROFILE):`, "", ...lines] : [];
}

/** A phase's summary as lines of the bench's output. */
export function printCpuSummary(phase: string, summary: CpuSummary): string[] {
  return [
    `- ${phase}: ${(summary.busyMs / 1000).toFixed(2)} s sampled busy; self time:`,
    ...summary.top.map((f) => `  - ${(f.ms / 1000).toFixed(2)} s ${f.name}`),
    `- ${phase}: ${(summary.allocatedBytes / 1e6).toFixed(0)} MB allocated; by the function that allocated it:`,
    ...summary.allocators.map((f) => `  - ${(f.bytes / 1e6).toFixed(1)} MB ${f.name}`),
  ];
}
