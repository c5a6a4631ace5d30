/**
 * Helpers for the API suites: databases read on every request, response bodies checked against
 * the schemas that generate the OpenAPI document, and Hono's typed client.
 */
import { hc } from "hono/client";
import { expect } from "vitest";
import { z } from "zod";
import type { AppType } from "../../src/app";
import type { Env } from "../../src/env";
import { freshDatabases } from "./databases";
import { Client, getJson, newIp } from "./worker";

/**
 * Fresh databases, with the edge cache off: these suites test what the database path answers.
 * The 404 brake stays on, as in every deployment; their many 404s stay under it because each
 * request comes from a client address of its own (getJson, apiClient).
 */
export const apiDatabases = () => freshDatabases({ CACHE_TTL_SECONDS: "0" });

/** Fails unless `body` is exactly what `schema` describes (response objects are strict). */
export function expectSchema(schema: z.ZodType, body: unknown): void {
  const result = schema.safeParse(body);
  if (!result.success) expect.fail(`the body does not match its response schema:\n${z.prettifyError(result.error)}`);
}

/** A typed client's answer with its body, checked against `schema` when it is a 200. */
export async function checked<R extends { status: number; json(): Promise<unknown> }>(res: R, schema: z.ZodType) {
  const body = (await res.json()) as Awaited<ReturnType<R["json"]>>;
  if (res.status === 200) expectSchema(schema, body);
  return { status: res.status, body };
}

/** A trade history page as the API must answer it: page 1 of 10 unless given. */
export const historyPage = (data: unknown[], pagination: { page?: number; per_page?: number; total: number }) => ({
  success: true,
  data,
  pagination: { page: 1, per_page: 10, ...pagination },
});

/** GETs `path`, expects a 200 whose body matches `schema`, and returns the body. */
export async function getValid<S extends z.ZodType>(env: Env, path: string, schema: S): Promise<z.output<S>> {
  const { status, body } = await getJson(env, path);
  expect(status, JSON.stringify(body)).toBe(200);
  expectSchema(schema, body);
  return body;
}

/** GETs `path` and expects the error envelope with this status; returns the body. */
export async function getError(env: Env, path: string, status: number) {
  const { status: actual, body } = await getJson(env, path);
  expect(actual, JSON.stringify(body)).toBe(status);
  expect(body.success).toBe(false);
  return body;
}

export const NOT_FOUND = { success: false, error: "Not Found", code: "not_found" };

/** The 400 envelope, with `details` naming each parameter at fault. */
export function badRequest(...paths: string[]) {
  return {
    success: false,
    error: "Bad Request",
    code: "bad_request",
    details: paths.map((path) => ({ path, message: expect.any(String) })),
  };
}

/** Hono's typed client over the Worker with this env, as a frontend would use the API. */
export function apiClient(env: Env) {
  const client = new Client(env);
  return hc<AppType>(client.origin, {
    // Each request from an address of its own, so the 404 brake never sees the suite's misses add up.
    fetch: (input: RequestInfo | URL, init?: RequestInit) => client.from(newIp()).fetch(new Request(input, init)),
  });
}
