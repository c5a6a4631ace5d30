/** Runs `wrangler dev` as a child process and waits until the Worker answers. */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

export interface WranglerDev {
  url: string;
  /** Resolves with the exit code when wrangler stops by itself. */
  exited: Promise<number>;
  stop(): Promise<void>;
}

export async function startWranglerDev(options: {
  port: number;
  vars?: Record<string, string>;
  quiet?: boolean;
  timeoutMs?: number;
}): Promise<WranglerDev> {
  const url = `http://127.0.0.1:${options.port}`;
  const args = [
    "dev",
    "--ip",
    "127.0.0.1",
    "--port",
    String(options.port),
    "--test-scheduled",
    "--show-interactive-dev-session=false",
  ];
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
