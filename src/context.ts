/** The Hono environment shared by the app, its routers and middleware. */
import type { Config, Env } from "./env";
import type { Db, Sql } from "./db/client";

export interface AppEnv {
  Bindings: Env;
  Variables: {
    requestId: string;
    config: Config;
    db: Db;
    sql: Sql;
  };
}
