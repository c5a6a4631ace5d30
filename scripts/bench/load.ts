/**
 * A small closed-loop HTTP load generator: `concurrency` clients each send a request, wait for
 * the answer, and send the next, until the time or request budget runs out. It reports
 * throughput and latency percentiles, and counts errors and bodies that fail a check.
 */
export interface LoadOptions {
  /** Picks the next request for a client; `i` counts requests across all clients. */
  next: (i: number) => { url: string; init?: RequestInit; check?: (status: number, body: string) => boolean };
  concurrency: number;
  durationMs: number;
  maxRequests?: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  wrong: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  firstFailure?: string;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const idx = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, idx)]!;
}

export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  let issued = 0;
  let errors = 0;
  let wrong = 0;
  let firstFailure: string | undefined;
  const started = performance.now();
  const deadline = started + options.durationMs;
  const max = options.maxRequests ?? Number.POSITIVE_INFINITY;

  async function client() {
    while (performance.now() < deadline && issued < max) {
      const { url, init, check } = options.next(issued++);
      const t0 = performance.now();
      try {
        const res = await fetch(url, init);
        const body = await res.text();
        latencies.push(performance.now() - t0);
        if (check && !check(res.status, body)) {
          wrong++;
          firstFailure ??= `${url}: HTTP ${res.status} ${body.slice(0, 200)}`;
        }
      } catch (err) {
        errors++;
        firstFailure ??= `${url}: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
  }

  await Promise.all(Array.from({ length: options.concurrency }, client));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length + errors,
    errors,
    wrong,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.at(-1) ?? 0,
    firstFailure,
  };
}
