/** Runs `wrangler dev` as a child process and waits until the Worker answers. */
import { spawn } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
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
    stdio: ["ignore", options.quiet ? "ignore" : "inherit", options.quiet ? "ignore" : "inherit"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
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
