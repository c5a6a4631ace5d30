/** Runs `wrangler dev` as a child process and waits until the Worker answers. */
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { fillAssets } from "./assets";

const root = fileURLToPath(new URL("..", import.meta.url));

export interface WranglerDev {
  url: string;
  /** Resolves with the exit code when wrangler stops by itself. */
  exited: Promise<number>;
  stop(): Promise<void>;
}

/** A port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startWranglerDev(options: {
  port: number;
  vars?: Record<string, string>;
  quiet?: boolean;
  timeoutMs?: number;
  /**
   * Local state (cache, queues) and the devtools port of its own, so several can run at once
   * (the browser suites); without it, the project's .wrangler/state and port 9229, as `npm start`.
   */
  isolated?: boolean;
}): Promise<WranglerDev> {
  const url = `http://127.0.0.1:${options.port}`;
  // wrangler refuses to start without the `[assets]` folder, and would serve a stale one.
  fillAssets();
  const args = [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(options.port),
    "--test-scheduled",
    "--show-interactive-dev-session=false",
  ];
  if (options.isolated) {
    args.push("--persist-to", await mkdtemp(join(tmpdir(), "wrangler-state-")), "--inspector-port", String(await freePort()));
  }
  for (const [name, value] of Object.entries(options.vars ?? {})) args.push("--var", `${name}:${value}`);
  const child = spawn("wrangler", args, {
    cwd: root,
    stdio: ["ignore", options.quiet ? "ignore" : "pipe", options.quiet ? "ignore" : "inherit"],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      // Miniflare fetches a sample `Request.cf` from workers.cloudflare.com on every start and
      // prints a stack trace when it cannot (offline, or no DNS). The Worker never reads
      // `request.cf`, so the placeholder it falls back to is all it needs, with no fetch.
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      // Colours survive the pipe below when this terminal shows them.
      ...(process.stdout.isTTY && process.env.FORCE_COLOR === undefined ? { FORCE_COLOR: "1" } : {}),
    },
  });
  if (child.stdout) printOnce(child.stdout);
  const exited = new Promise<number>((resolve) => child.on("exit", (code) => resolve(code ?? 0)));
  let running = true;
  void exited.then(() => (running = false));

  const deadline = Date.now() + (options.timeoutMs ?? 90_000);
  for (;;) {
    if (!running) throw new Error("wrangler dev exited before it answered");
    if (Date.now() > deadline) {
      child.kill("SIGTERM");
      throw new Error(`wrangler dev did not answer on ${url}`);
    }
    try {
      if ((await fetch(`${url}/api/health/live`)).ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }

  return {
    url,
    exited,
    async stop() {
      if (!running) return;
      child.kill("SIGTERM");
      await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
      if (running) child.kill("SIGKILL");
    },
  };
}

/** Copies wrangler's output to ours through `bindingsOnce`. */
function printOnce(output: Readable): void {
  const filter = bindingsOnce();
  createInterface({ input: output, crlfDelay: Number.POSITIVE_INFINITY }).on("line", (line) => {
    for (const out of filter(line)) process.stdout.write(`${out}\n`);
  });
}

/**
 * A filter of wrangler's output lines, without a second copy of its bindings table: wrangler
 * prints the table again each time its dev registry changes ("Connection status updated"), and
 * the first change is this Worker registering itself. A table that differs from the last one
 * printed (a binding's connection status changed) is printed, with the line that announced it.
 * Each call takes one line and returns the lines to print now.
 */
export function bindingsOnce(): (line: string) => string[] {
  let block: string[] | null = null;
  let printed = "";
  let held: string | null = null;
  return (line) => {
    const plain = stripVTControlCharacters(line);
    if (block) {
      block.push(line);
      if (plain.trim() !== "") return [];
      const text = block.map((l) => stripVTControlCharacters(l)).join("\n");
      const out = text === printed ? [] : [...(held === null ? [] : [held]), ...block];
      printed = text;
      block = null;
      held = null;
      return out;
    }
    if (plain.includes("Connection status updated")) {
      held = line;
      return [];
    }
    if (plain.includes("has access to the following bindings:")) {
      block = [line];
      return [];
    }
    const out = [...(held === null ? [] : [held]), line];
    held = null;
    return out;
  };
}
