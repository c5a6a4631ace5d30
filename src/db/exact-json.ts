/**
 * Reads the JSON of the read queries and the stored metrics keeping every digit of its exact
 * figures (the fields the response schema marks with money(), src/schemas/decimal.ts), which
 * become Decimals. JSON.parse would turn `9999999999999999.9999` into the double
 * 10000000000000000, so those figures must reach it as text:
 *
 * - the JSON built in SQL (shapes.ts) writes money as JSON strings (`::text`), parsed by the
 *   driver as usual, then decodeExact makes the schema's exact figures Decimals;
 * - the stored metrics, which JSON.stringify wrote with the figures as numbers, are fetched as
 *   text and read by parseExact, which keeps each number's own text (the reviver's `source`).
 *   A reviver makes JSON.parse several times slower, so only these small objects take it.
 *
 * The schema is the one place that marks a field as money, so a money field added to a resource
 * is read exactly with no change here (in SQL, write it `::text`).
 */
import type { z } from "@hono/zod-openapi";
import { Decimal } from "../domain/decimal";
import { isExactNumber } from "../schemas/decimal";

/** Replaces the exact figures of a freshly parsed value in place; returns the value. */
type Decode = (value: unknown) => unknown;

type Def = {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  valueType?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
};

const decoders = new WeakMap<z.ZodType, Decode | null>();

/**
 * A freshly parsed value (changed in place) with the fields `schema` marks as exact figures as
 * Decimals, from their text. The value is trusted to have the schema's shape (it comes from our
 * own SQL); it is not validated.
 */
export function decodeExact<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const decode = decoderOf(schema);
  return (decode ? decode(value) : value) as z.output<S>;
}

/** `text` parsed as JSON, numbers kept exact, with the fields `schema` marks as exact figures as Decimals. */
export function parseExact<S extends z.ZodType>(schema: S, text: string): z.output<S> {
  // A number whose text is not the shortest text of its double is kept as its text: the only
  // numbers that can lose digits, or carry trailing zeros (numeric(20,4) writes 100.0000).
  const value: unknown = JSON.parse(text, (_key, v: unknown, context?: { source?: string }) =>
    typeof v === "number" && context?.source !== undefined && context.source !== String(v) ? context.source : v,
  );
  return decodeExact(schema, value);
}

const exactFigure: Decode = (v) => (typeof v === "number" ? Decimal.of(v) : Decimal.parse(v as string));
/** Any other number is what JSON.parse would have made of it. */
const plainNumber: Decode = (v) => (typeof v === "string" ? Number(v) : v);

/** What turns the schema's exact figures into Decimals, or null when it has none. Built once per schema. */
function decoderOf(schema: z.ZodType): Decode | null {
  const known = decoders.get(schema);
  if (known !== undefined) return known;
  const decode = build(schema);
  decoders.set(schema, decode);
  return decode;
}

function build(schema: z.ZodType): Decode | null {
  if (isExactNumber(schema)) return exactFigure;
  const def = schema._zod.def as Def;
  switch (def.type) {
    case "number":
      return plainNumber;
    case "nullable":
    case "optional":
    case "readonly": {
      const inner = def.innerType && decoderOf(def.innerType);
      return inner ? (v) => (v === null || v === undefined ? v : inner(v)) : null;
    }
    case "pipe":
      return def.in ? decoderOf(def.in) : null;
    case "array": {
      const item = def.element && decoderOf(def.element);
      if (!item) return null;
      return (v) => {
        const list = v as unknown[];
        for (let i = 0; i < list.length; i++) list[i] = item(list[i]);
        return list;
      };
    }
    case "record": {
      const item = def.valueType && decoderOf(def.valueType);
      if (!item) return null;
      return (v) => {
        const map = v as Record<string, unknown>;
        for (const key of Object.keys(map)) map[key] = item(map[key]);
        return map;
      };
    }
    case "object": {
      const fields = Object.entries(def.shape ?? {}).flatMap(([key, field]) => {
        const decode = decoderOf(field);
        return decode ? [[key, decode] as const] : [];
      });
      if (!fields.length) return null;
      return (v) => {
        const object = v as Record<string, unknown>;
        for (const [key, decode] of fields) if (key in object) object[key] = decode(object[key]);
        return object;
      };
    }
    default:
      return null;
  }
}
