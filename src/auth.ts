/**
 * The admin key (DESIGN.md §9): `X-Admin-Key` must equal ADMIN_API_KEY. Both are hashed with
 * SHA-256 first, so the constant-time comparison always sees two 32-byte values and the
 * comparison time says nothing about the key's length. With no key configured every admin call
 * is refused. The key is never logged.
 */
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./context";
import { AppError } from "./errors";

const encoder = new TextEncoder();

async function sha256(value: string): Promise<ArrayBuffer> {
  return crypto.subtle.digest("SHA-256", encoder.encode(value));
}

async function isAdminKey(provided: string | undefined, expected: string | undefined): Promise<boolean> {
  if (!expected || !provided) return false;
  const [a, b] = await Promise.all([sha256(provided), sha256(expected)]);
  return crypto.subtle.timingSafeEqual(a, b);
}

export const requireAdminKey = createMiddleware<AppEnv>(async (c, next) => {
  if (!(await isAdminKey(c.req.header("X-Admin-Key"), c.get("config").ADMIN_API_KEY))) throw new AppError(401);
  await next();
});
