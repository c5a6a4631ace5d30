/** Small readers of the page's HTML for the suites in workerd, which has no DOM. */
import { Client } from "../support/worker";
import type { Env } from "../../src/env";

export interface PageReply {
  status: number;
  headers: Headers;
  html: string;
}

export async function getPage(env: Env, path: string, headers: Record<string, string> = {}): Promise<PageReply> {
  const res = await new Client(env).fetch(path, { headers });
  return { status: res.status, headers: res.headers, html: await res.text() };
}

/** The value and the text of the figure a summary card shows. */
export function figure(html: string, name: string): { value: string; text: string } {
  const match = new RegExp(`data-figure="${name}"[\\s\\S]*?<data value="([^"]*)"[^>]*>([^<]*)</data>`).exec(html);
  if (!match) throw new Error(`no figure ${name}`);
  return { value: match[1]!, text: match[2]! };
}

/** The rows of the table marked data-table=`name`, each as the values of its <data>/<time> cells. */
export function tableRows(html: string, name: string): string[][] {
  const table = new RegExp(`<table data-table="${name}">([\\s\\S]*?)</table>`).exec(html)?.[1];
  if (table === undefined) return [];
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? "";
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...row!.matchAll(/<(?:data value|time datetime)="([^"]*)"/g)].map(([, value]) => value!),
  );
}

/** Ids of the history rows shown, in order. */
export const historyIds = (html: string) =>
  [...(/<table data-table="history">([\s\S]*?)<\/table>/.exec(html)?.[1] ?? "").matchAll(/<tr data-id="([^"]+)"/g)].map(
    (m) => m[1],
  );

/** Hrefs of the links with this rel (prev, next). */
export const relLink = (html: string, rel: string) =>
  [...html.matchAll(/<a href="([^"]+)" rel="(\w+)"/g)].find((m) => m[2] === rel)?.[1]?.replaceAll("&amp;", "&");

/** The value and the text of one labelled part (data-part) of a summary card. */
export function figurePart(html: string, name: string, part: string): { value: string; text: string } {
  const card = new RegExp(`data-figure="${name}"([\\s\\S]*?)</dd>`).exec(html)?.[1] ?? "";
  const match = new RegExp(`data-part="${part}">[^<]*<data value="([^"]*)"[^>]*>([^<]*)</data>`).exec(card);
  if (!match) throw new Error(`no part ${part} of figure ${name}`);
  return { value: match[1]!, text: match[2]! };
}

/** The text a person reads in each cell of the body rows of the table marked data-table=`name`. */
export function tableTexts(html: string, name: string): string[][] {
  const table = new RegExp(`<table data-table="${name}">([\\s\\S]*?)</table>`).exec(html)?.[1];
  if (table === undefined) return [];
  const body = /<tbody>([\s\S]*?)<\/tbody>/.exec(table)?.[1] ?? "";
  return [...body.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map(([, row]) =>
    [...row!.matchAll(/<t[hd][^>]*>([\s\S]*?)<\/t[hd]>/g)].map(([, cell]) => cell!.replace(/<[^>]+>/g, "")),
  );
}

/** Ids (data-id) of the rows of the table marked data-table=`name`, in order. */
export const rowIds = (html: string, name: string) =>
  [
    ...(new RegExp(`<table data-table="${name}">([\\s\\S]*?)</table>`).exec(html)?.[1] ?? "").matchAll(/<tr data-id="([^"]+)"/g),
  ].map((m) => m[1]);

/** The section with this heading id, from its opening tag to its end. */
export function section(html: string, id: string): string {
  const match = new RegExp(`<section aria-labelledby="${id}">[\\s\\S]*?</section>`).exec(html);
  if (!match) throw new Error(`no section ${id}`);
  return match[0];
}
