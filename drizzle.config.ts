import { defineConfig } from "drizzle-kit";

// The target (serving) schema: its index re-exports every table file of src/db/schema/.
// `npm run db:generate` writes migrations to drizzle/target; `npm run db:migrate` applies them
// to DATABASE_URL (a direct Neon connection string).
// The source schema has its own folder, drizzle/source (see the db:generate script).
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema/index.ts",
  out: "./drizzle/target",
  dbCredentials: { url: process.env.DATABASE_URL ?? "" },
});
