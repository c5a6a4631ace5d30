/**
 * Cell conversion for requests without `Neon-Raw-Text-Output: true`, after Neon's proxy
 * (`proxy/src/serverless/json.rs`): bool, int2/int4, float4/float8 and json/jsonb become JSON
 * values, arrays become JSON arrays, everything else (int8 and numeric included) stays text.
 * The @neondatabase/serverless driver always asks for raw text; this is for other clients.
 */

const BOOL = 16;
const INT2 = 21;
const INT4 = 23;
const FLOAT4 = 700;
const FLOAT8 = 701;
const JSON_OID = 114;
const JSONB = 3802;

/**
 * Element types (pg_type.typelem) of the common built-in array types. The proxy knows every
 * type; an array type missing here is returned as its text, not as a JSON array.
 */
const ARRAY_ELEMENTS: Record<number, number> = {
  1000: BOOL,
  1001: 17, // bytea
  1005: INT2,
  1007: INT4,
  1009: 25, // text
  1014: 1042, // bpchar
  1015: 1043, // varchar
  1016: 20, // int8
  1021: FLOAT4,
  1022: FLOAT8,
  1028: 26, // oid
  1115: 1114, // timestamp
  1182: 1082, // date
  1183: 1083, // time
  1185: 1184, // timestamptz
  1187: 1186, // interval
  1231: 1700, // numeric
  199: JSON_OID,
  2951: 2950, // uuid
  3807: JSONB,
};

export function textToJson(text: string, dataTypeID: number): unknown {
  const element = ARRAY_ELEMENTS[dataTypeID];
  return element === undefined ? scalar(text, dataTypeID) : parseArray(text, element);
}

function scalar(text: string, dataTypeID: number): unknown {
  switch (dataTypeID) {
    case BOOL:
      return text === "t";
    case INT2:
    case INT4:
      return Number.parseInt(text, 10);
    case FLOAT4:
    case FLOAT8: {
      // NaN and ±Infinity have no JSON number, so they stay strings.
      const n = Number(text);
      return Number.isFinite(n) ? n : text;
    }
    case JSON_OID:
    case JSONB:
      return JSON.parse(text);
    default:
      return text;
  }
}

/** Parses Postgres's array output (https://www.postgresql.org/docs/current/arrays.html#ARRAYS-IO). */
function parseArray(text: string, element: number): unknown[] {
  // Drop explicit bounds such as `[0:1]=`: JSON has no place for them.
  let s = text.startsWith("[") ? text.slice(text.indexOf("=") + 1) : text;
  s = s.trimStart();
  let i = 0;

  const fail = (): never => {
    throw new Error(`unbalanced array: ${text}`);
  };
  const skipSpace = () => {
    while (s[i] === " ") i++;
  };

  const parseList = (): unknown[] => {
    if (s[i++] !== "{") fail();
    const items: unknown[] = [];
    skipSpace();
    if (s[i] === "}") {
      i++;
      return items;
    }
    for (;;) {
      items.push(parseItem());
      if (s[i] !== ",") break;
      i++;
    }
    if (s[i++] !== "}") fail();
    skipSpace();
    return items;
  };

  const parseItem = (): unknown => {
    skipSpace();
    if (s[i] === "{") return parseList();
    if (s[i] === '"') {
      let value = "";
      for (i++; s[i] !== '"'; i++) {
        if (i >= s.length) fail();
        if (s[i] === "\\") i++;
        value += s[i];
      }
      i++;
      skipSpace();
      return scalar(value, element);
    }
    const end = s.slice(i).search(/[,}]/);
    if (end < 0) fail();
    const raw = s.slice(i, i + end).trimEnd();
    i += end;
    return raw === "NULL" ? null : scalar(raw, element);
  };

  const items = parseList();
  if (i < s.length) fail();
  return items;
}
