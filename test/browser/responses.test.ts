/**
 * The served OpenAPI document as a tool reads it, against the service as a client meets it
 * (`wrangler dev` over a synced book, ./harness.ts): ajv, in strict mode, compiles every schema
 * of the document; every operation's real answers, its success and the errors a client can
 * cause (400, 401, 404, 409, 429, and 304 to a revalidation), are documented for that status and
 * validate against the schema documented for them, with the headers the document says are
 * required; and each operation's parameter examples, sent together, make a request the service
 * answers with its success (what a fuzzer's example phase sends first).
 *
 * The book's customer has the slug and the account id of the document's examples, so the
 * examples name data that exists. The brakes count per client, and every request here comes
 * from the same one: the 429s are provoked last. Ajv compiles validators to code, which workerd forbids: this
 * runs in Node, against the Worker over HTTP.
 */
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newSlug } from "../../src/domain/slug";
import { Book } from "../support/book";
import { ADMIN_KEY, type Stack, startStack } from "./harness";

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  example?: unknown;
  schema: Schema & { example?: unknown };
}
interface Response {
  headers?: Record<string, { required?: boolean; schema: Schema }>;
  content?: Record<string, { schema: Schema }>;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  security?: unknown[];
  responses: Record<string, Response>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

const SLUG = "k3v7q2m5x4a6b2c7d3e4f5g6h7";
const ACCOUNT_ID = "6f1c2a4e-8d3b-4c7a-9e21-5b0d7f3a9c10";

/** One customer at SSI under the document's example slug and account id, with FPT trades, a dividend and closes. */
function exampleBook(): Book {
  const book = new Book();
  const broker = book.broker({ code: "SSI" });
  const staff = book.staffMember();
  const customer = book.customer({ staff_id: staff.id, slug: SLUG });
  const account = book.account({ id: ACCOUNT_ID, customer_id: customer.id, broker_id: broker.id });
  book.trade({ account_id: account.id, trade_date: "2024-01-31", type: "buy", quantity: 200, price: "100000", fee: "150" });
  book.trade({ account_id: account.id, trade_date: "2024-06-03", type: "sell", quantity: 100, price: "110000.5", fee: "165" });
  book.holding({ account_id: account.id, quantity: 100, avg_cost: "100075.0000", total_cost: "10007500.0000" });
  book.corporateAction({
    account_id: account.id,
    type: "cash_dividend",
    ex_date: "2024-05-20",
    pay_date: "2024-06-10",
    quantity: 200,
    gross_amount: "400000",
    tax: "20000",
  });
  for (const [date, close] of [
    ["2024-01-31", "100000"],
    ["2024-06-03", "110000"],
    ["2024-12-31", "120000.5"],
  ] as const) {
    book.price({ stock_code: "FPT", trade_date: date, close_price: close });
    book.price({ stock_code: "VNINDEX", trade_date: date, close_price: "1200" });
  }
  return book;
}

let stack: Stack;
let document: Document;
let ajv: Ajv;

beforeAll(async () => {
  stack = await startStack({ book: exampleBook() });
  document = (await (await fetch(`${stack.url}/api/openapi.json`)).json()) as Document;
  ajv = strictAjv(document);
}, 240_000);

afterAll(async () => {
  await stack?.stop();
});

/**
 * Ajv in strict mode, with the document's component schemas under `components`. OpenAPI 3.0's
 * schema objects are JSON Schema with a few keywords more: ajv knows `nullable` itself (and
 * refuses one without a `type`), and `example` is declared as the annotation it is. Nothing is
 * converted, so what ajv compiles is what the document says.
 */
function strictAjv(doc: Document): Ajv {
  const validator = new Ajv({ strict: true, allErrors: true });
  addFormats(validator);
  validator.addKeyword({ keyword: "example", schemaType: ["string", "number", "integer", "boolean", "object", "array", "null"] });
  validator.addSchema({ $id: "components", definitions: refs(doc.components.schemas) }, "components");
  return validator;
}

/** `#/components/schemas/X` becomes `components#/definitions/X`: the references a schema compiled alone can follow. */
function refs<T>(schema: T): T {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', '"components#/definitions/')) as T;
}

const compiled = new Map<string, ValidateFunction>();
function validatorOf(schema: Schema): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(refs(schema));
    compiled.set(key, validate);
  }
  return validate;
}

const operations = () =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method, path, operation })),
  );

interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${stack.url}${path}`, { method: method.toUpperCase(), headers });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** Why `answer` is not what the document says `method template` answers with its status; [] when it is. */
function problems(method: string, template: string, answer: Answer): string[] {
  const response = document.paths[template]?.[method]?.responses[String(answer.status)];
  if (!response) return [`${answer.status} is not documented`];
  const found: string[] = [];
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    if (header.required && !answer.headers.has(name)) found.push(`header ${name} is missing`);
  }
  const type = answer.headers.get("Content-Type")?.split(";")[0]?.trim();
  if (!response.content) {
    if (answer.text !== "") found.push("a body where none is documented");
    return found;
  }
  const media = type ? response.content[type] : undefined;
  if (!media) return [...found, `Content-Type ${type} is not documented`];
  const body = type === "application/json" ? JSON.parse(answer.text) : answer.text;
  const validate = validatorOf(media.schema);
  if (!validate(body)) found.push(...(validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`));
  return found;
}

/** Every (operation, status) whose real answer was validated. */
const seen = new Set<string>();

async function expectDocumented(
  method: string,
  template: string,
  path: string,
  status: number,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const answer = await send(method, path, headers);
  expect(answer.status, `${method} ${path}: ${answer.text.slice(0, 300)}`).toBe(status);
  expect(problems(method, template, answer), `${method} ${path} ${status}`).toEqual([]);
  seen.add(`${method} ${template} ${status}`);
  return answer;
}

const admin = { "X-Admin-Key": ADMIN_KEY };

describe("the OpenAPI document, read by ajv in strict mode", () => {
  it("has no nullable without a type", () => {
    const found: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (!value || typeof value !== "object") return;
      if (!Array.isArray(value) && "nullable" in value && !("type" in value)) found.push(at);
      for (const [key, inner] of Object.entries(value)) walk(inner, `${at}/${key}`);
    };
    walk(document, "#");
    expect(found).toEqual([]);
  });

  it("compiles every schema: the components, and each parameter's, header's and response's", () => {
    for (const name of Object.keys(document.components.schemas)) {
      expect(ajv.getSchema(`components#/definitions/${name}`), name).toBeTypeOf("function");
    }
    let schemas = 0;
    for (const { method, path, operation } of operations()) {
      for (const parameter of operation.parameters ?? []) {
        expect(() => validatorOf(parameter.schema), `${method} ${path} ${parameter.name}`).not.toThrow();
        schemas++;
      }
      for (const [status, response] of Object.entries(operation.responses)) {
        for (const [name, header] of Object.entries(response.headers ?? {})) {
          expect(() => validatorOf(header.schema), `${method} ${path} ${status} ${name}`).not.toThrow();
          schemas++;
        }
        for (const [type, media] of Object.entries(response.content ?? {})) {
          expect(() => validatorOf(media.schema), `${method} ${path} ${status} ${type}`).not.toThrow();
          schemas++;
        }
      }
    }
    expect(schemas).toBeGreaterThan(100);
  });
});

describe("each operation's parameter examples", () => {
  it("combine into a request the service answers with its documented success", async () => {
    const requests: string[] = [];
    for (const { method, path, operation } of operations()) {
      const parameters = operation.parameters ?? [];
      const example = (p: Parameter) => p.example ?? p.schema.example;
      let url = path;
      const query = new URLSearchParams();
      for (const parameter of parameters) {
        const value = example(parameter);
        if (parameter.in === "path") {
          expect(value, `${method} ${path} ${parameter.name} has an example`).toBeDefined();
          url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
        } else if (parameter.in === "query" && value !== undefined) {
          query.set(parameter.name, String(value));
        }
      }
      const target = query.size ? `${url}?${query}` : url;
      requests.push(`${method.toUpperCase()} ${target}`);
      const headers = operation.security ? admin : {};
      const answer = await send(method, target, headers);
      const success = Object.keys(operation.responses).find((status) => status.startsWith("2"))!;
      expect(String(answer.status), `${method.toUpperCase()} ${target}: ${answer.text.slice(0, 300)}`).toBe(success);
      expect(problems(method, path, answer), `${method} ${target}`).toEqual([]);
    }
    expect(requests).toContain(`GET /api/performance/${SLUG}?range=1y&to=2024-12-31&broker=SSI&interval=week&benchmark=VN30`);
  });
});

describe("the service's real answers, against the document", () => {
  const unknown = newSlug();
  const bySlug = [
    "/api/customers/{slug}",
    "/api/portfolio/{slug}",
    "/api/transactions/{slug}",
    "/api/transactions/{slug}/{accountId}",
    "/api/stats/{slug}",
    "/api/analytics/{slug}",
    "/api/aggregate/{slug}",
    "/api/corporate-actions/{slug}",
    "/api/performance/{slug}",
  ];
  const fill = (template: string, slug = SLUG, accountId = ACCOUNT_ID) =>
    template.replace("{slug}", slug).replace("{accountId}", accountId);

  it("answers every customer read with its documented 200, 304 and 404", async () => {
    for (const template of bySlug) {
      const ok = await expectDocumented("get", template, fill(template), 200);
      await expectDocumented("get", template, fill(template), 304, { "If-None-Match": ok.headers.get("ETag")! });
      await expectDocumented("get", template, fill(template, unknown), 404);
    }
    const account = "/api/transactions/{slug}/{accountId}";
    await expectDocumented("get", account, fill(account, SLUG, crypto.randomUUID()), 404);
    // The check can fail: an answer that lost a field, or gained one, is not the documented one.
    const customer = await send("get", fill("/api/customers/{slug}"));
    const body = JSON.parse(customer.text);
    const { name: _, ...nameless } = body.data;
    for (const data of [nameless, { ...body.data, nickname: "x" }]) {
      const changed = { ...customer, text: JSON.stringify({ ...body, data }) };
      expect(problems("get", "/api/customers/{slug}", changed)).not.toEqual([]);
    }
    // A customer read over its filters, with data in the answer.
    const filtered = await expectDocumented(
      "get",
      "/api/transactions/{slug}",
      `/api/transactions/${SLUG}?broker=ssi&stock_code=fpt&type=buy&start_date=2024-01-01&end_date=2024-12-31`,
      200,
    );
    expect(JSON.parse(filtered.text).data).toHaveLength(1);
    await expectDocumented("get", "/api/performance/{slug}", `/api/performance/${SLUG}?range=1y&interval=month`, 200);
    await expectDocumented("get", "/api/performance/{slug}", `/api/performance/${SLUG}?from=2024-02-01&to=2024-06-30`, 200);
  });

  it("answers refused parameters with the documented 400", async () => {
    await expectDocumented("get", "/api/transactions/{slug}", `/api/transactions/${SLUG}?per_page=0`, 400);
    const account = "/api/transactions/{slug}/{accountId}";
    await expectDocumented("get", account, `${fill(account)}?start_date=2024-02-30`, 400);
    await expectDocumented("get", "/api/corporate-actions/{slug}", `/api/corporate-actions/${SLUG}?page=0`, 400);
    await expectDocumented("get", "/api/performance/{slug}", `/api/performance/${SLUG}?range=1y&from=2024-01-01`, 400);
    await expectDocumented("post", "/api/sync", "/api/sync?mode=sometimes", 400, admin);
  });

  it("answers the brokers, the health checks and the documentation with their documented 200", async () => {
    const brokers = await expectDocumented("get", "/api/brokers", "/api/brokers", 200);
    await expectDocumented("get", "/api/brokers", "/api/brokers", 304, { "If-None-Match": brokers.headers.get("ETag")! });
    for (const path of ["/api/health", "/api/health/live", "/api/health/db", "/api/openapi.json", "/api/docs"]) {
      await expectDocumented("get", path, path, 200);
    }
  });

  it("answers the admin operations with their documented 200 and 401, and a run that holds the lease with 409", async () => {
    await expectDocumented("post", "/api/sync", "/api/sync", 401);
    await expectDocumented("get", "/api/sync/status", "/api/sync/status", 401, { "X-Admin-Key": "not-the-key" });
    await expectDocumented("get", "/api/sync/status", "/api/sync/status", 200, admin);
    // Two runs at once: one holds the lease, the other is told to come back (or both finish in turn).
    const [first, second] = await Promise.all([send("post", "/api/sync", admin), send("post", "/api/sync", admin)]);
    for (const answer of [first!, second!]) {
      expect([200, 409]).toContain(answer.status);
      expect(problems("post", "/api/sync", answer), answer.text).toEqual([]);
      seen.add(`post /api/sync ${answer.status}`);
    }
    if (!seen.has("post /api/sync 200")) await expectDocumented("post", "/api/sync", "/api/sync", 200, admin);
  });

  it("answers a client past a brake with the documented 429", async () => {
    // Wrong admin keys first: the lookups' brake would not stop them, and theirs does not stop lookups.
    let answer: Answer | undefined;
    for (let i = 0; i < 20 && answer?.status !== 429; i++)
      answer = await send("get", "/api/sync/status", { "X-Admin-Key": `wrong-${i}` });
    expect(answer!.status).toBe(429);
    await expectDocumented("get", "/api/sync/status", "/api/sync/status", 429, admin);
    await expectDocumented("post", "/api/sync", "/api/sync", 429, admin);
    answer = undefined;
    for (let i = 0; i < 40 && answer?.status !== 429; i++) answer = await send("get", `/api/customers/${newSlug()}`);
    expect(answer!.status).toBe(429);
    for (const template of bySlug) await expectDocumented("get", template, fill(template, unknown), 429);
  });

  it("validated a real 200 of every operation in the document, and these errors", () => {
    const expected = operations().map(({ method, path }) => `${method} ${path} 200`);
    expect([...seen].filter((s) => s.endsWith(" 200")).sort()).toEqual(expected.sort());
    const errors = [...seen].filter((s) => !s.endsWith(" 200"));
    for (const template of bySlug) {
      expect(errors, template).toEqual(
        expect.arrayContaining([`get ${template} 304`, `get ${template} 404`, `get ${template} 429`]),
      );
    }
    expect(errors).toEqual(
      expect.arrayContaining([
        "get /api/transactions/{slug} 400",
        "get /api/performance/{slug} 400",
        "post /api/sync 400",
        "post /api/sync 401",
        "post /api/sync 429",
        "get /api/sync/status 401",
        "get /api/sync/status 429",
        "get /api/brokers 304",
      ]),
    );
  });
});
