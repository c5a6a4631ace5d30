/** Calls the Worker exactly as the runtime does: fetch and scheduled handlers with an env. */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../src/index";
import type { Env } from "../../src/env";

/**
 * Each call comes from its own client address unless the test names one, so the 404 rate limit
 * (src/rate-limit.ts) only meets the tests that are about it.
 */
export async function callWorker(env: Env, path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const headers = new Headers(init.headers);
  if (!headers.has("CF-Connecting-IP")) headers.set("CF-Connecting-IP", `2001:db8::${crypto.randomUUID().slice(0, 4)}`);
  const response = await worker.fetch(new Request(`https://api.test${path}`, { ...init, headers }), env, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

export async function getJson<T = any>(env: Env, path: string, init: RequestInit = {}): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await callWorker(env, path, init);
  const body = (await res.json()) as T;
  return { status: res.status, body, headers: res.headers };
}

export async function runScheduled(env: Env, cron = "*/15 * * * *"): Promise<void> {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron }), env, ctx);
  await waitOnExecutionContext(ctx);
}
