/**
 * PGlite spread over worker threads: each database lives on one thread, chosen by its name, and
 * each thread runs a PgliteBackend of its own. PGlite computes on the thread that calls it, so
 * on one thread every database takes turns on one core; the test suites keep several databases
 * busy at once, and a thread each lets them use the machine's other cores.
 *
 * The threads run pglite-thread.ts, loaded through tsx like the rest of the tooling.
 */
import { Worker } from "node:worker_threads";
import {
  type Backend,
  type ErrorFields,
  SqlError,
  type Statement,
  type StatementResult,
  type TransactionOptions,
} from "./backend";
import type { PgliteBackendOptions } from "./pglite-backend";

/** What a thread is asked to do: one of the Backend's methods, by name. */
export interface ThreadCall {
  id: number;
  method: "query" | "transaction" | "drop" | "close";
  args: unknown[];
}

/** A thread's answer to a call, or a line for the server's log. */
export type ThreadReply =
  | { id: number; result: unknown }
  | { id: number; sqlError: ErrorFields }
  | { id: number; error: string }
  | { log: string };

export type ThreadOptions = Omit<PgliteBackendOptions, "log">;

export class PgliteThreads implements Backend {
  readonly #threads: Worker[];
  readonly #waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  #next = 0;

  constructor(count: number, options: ThreadOptions, log: (msg: string) => void) {
    this.#threads = Array.from({ length: count }, (_, index) => {
      const thread = new Worker(new URL("./pglite-thread.ts", import.meta.url), {
        workerData: options,
        execArgv: ["--import", "tsx"],
      });
      thread.on("message", (reply: ThreadReply) => {
        if ("log" in reply) return log(`[thread ${index}] ${reply.log}`);
        const waiting = this.#waiting.get(reply.id);
        this.#waiting.delete(reply.id);
        if (!waiting) return;
        if ("result" in reply) waiting.resolve(reply.result);
        else waiting.reject("sqlError" in reply ? new SqlError(reply.sqlError) : new Error(reply.error));
      });
      // A thread that dies fails what waits on it; the server answers those 500.
      thread.on("error", (error) => {
        log(`PGlite thread ${index} failed: ${error}`);
        for (const [id, waiting] of this.#waiting) {
          this.#waiting.delete(id);
          waiting.reject(error);
        }
      });
      return thread;
    });
  }

  query(database: string, statement: Statement): Promise<StatementResult> {
    return this.#call(this.#threadOf(database), "query", [database, statement]) as Promise<StatementResult>;
  }

  transaction(database: string, statements: Statement[], options: TransactionOptions): Promise<StatementResult[]> {
    return this.#call(this.#threadOf(database), "transaction", [database, statements, options]) as Promise<StatementResult[]>;
  }

  async drop(database: string): Promise<void> {
    await this.#call(this.#threadOf(database), "drop", [database]);
  }

  async close(): Promise<void> {
    await Promise.all(this.#threads.map((thread) => this.#call(thread, "close", [])));
    await Promise.all(this.#threads.map((thread) => thread.terminate()));
  }

  #call(thread: Worker, method: ThreadCall["method"], args: unknown[]): Promise<unknown> {
    const id = ++this.#next;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      thread.postMessage({ id, method, args } satisfies ThreadCall);
    });
  }

  /** The same thread for a name every time (FNV-1a over its characters). */
  #threadOf(database: string): Worker {
    let hash = 0x811c9dc5;
    for (let i = 0; i < database.length; i++) hash = Math.imul(hash ^ database.charCodeAt(i), 0x01000193);
    return this.#threads[(hash >>> 0) % this.#threads.length] as Worker;
  }
}
