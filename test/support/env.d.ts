// Bindings the tests see: the Worker's own plus those added by test/vitest.config.ts.
type WorkerEnv = import("../../src/env").Env;
declare namespace Cloudflare {
  interface Env extends WorkerEnv {
    LOCAL_DB_PORT: string;
  }
}

// Vite's `import.meta.env` in the suites (VITE_* variables reach workerd through it).
interface ImportMeta {
  readonly env: Readonly<Record<string, string | undefined>>;
}
