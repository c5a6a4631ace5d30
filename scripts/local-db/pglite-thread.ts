/** One thread of PgliteThreads (pglite-threads.ts): a PgliteBackend answering its calls. */
import { parentPort, workerData } from "node:worker_threads";
import { toSqlError } from "./backend";
import { PgliteBackend } from "./pglite-backend";
import type { ThreadCall, ThreadOptions, ThreadReply } from "./pglite-threads";

const port = parentPort;
if (!port) throw new Error("pglite-thread.ts runs as a worker thread of PgliteThreads");
const reply = (message: ThreadReply) => port.postMessage(message);
const backend = new PgliteBackend({ ...(workerData as ThreadOptions), log: (msg) => reply({ log: msg }) });

port.on("message", async ({ id, method, args }: ThreadCall) => {
  try {
    const result = await (backend[method] as (...a: unknown[]) => Promise<unknown>)(...args);
    reply({ id, result: result ?? null });
  } catch (error) {
    const sql = toSqlError(error);
    reply(
      sql ? { id, sqlError: sql.fields } : { id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) },
    );
  }
});
