/**
 * Renders an OpenAPI 3.0 document as one self-contained HTML page: endpoints with their
 * parameters and responses, then the schemas they refer to. `html` escapes every value.
 */
import type { OpenAPIHono } from "@hono/zod-openapi";
import { html, raw } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

export type OpenApiDocument = ReturnType<OpenAPIHono["getOpenAPIDocument"]>;
type Operation = NonNullable<OpenApiDocument["paths"][string]["get"]>;
type Parameter = NonNullable<Operation["parameters"]>[number];
type Schema = NonNullable<NonNullable<OpenApiDocument["components"]>["schemas"]>[string];
type Response = { description: string; content?: Record<string, { schema?: Schema }> };

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
type Html = HtmlEscapedString | Promise<HtmlEscapedString>;

const refName = (ref: string) => ref.slice(ref.lastIndexOf("/") + 1);

function typeOf(schema: Schema | undefined): Html {
  if (!schema) return html``;
  if ("$ref" in schema) return html`<a href="#schema-${refName(schema.$ref)}">${refName(schema.$ref)}</a>`;
  let type: Html;
  if (schema.enum) type = html`${schema.enum.map((v) => JSON.stringify(v)).join(" | ")}`;
  else if (schema.type === "array") type = html`${typeOf(schema.items)}[]`;
  else if (typeof schema.additionalProperties === "object") type = html`{ [key]: ${typeOf(schema.additionalProperties)} }`;
  else type = html`${[schema.type ?? "any"].flat().join(" | ")}${schema.format ? ` (${schema.format})` : ""}`;
  return schema.nullable ? html`${type} | null` : type;
}

function constraints(schema: Schema | undefined): string {
  if (!schema || "$ref" in schema) return "";
  const parts: string[] = [];
  if (schema.minimum !== undefined || schema.maximum !== undefined) parts.push(`${schema.minimum ?? ""}..${schema.maximum ?? ""}`);
  if (schema.pattern) parts.push(`pattern ${schema.pattern}`);
  if (schema.default !== undefined) parts.push(`default ${JSON.stringify(schema.default)}`);
  return parts.join(", ");
}

function operation(method: string, path: string, op: Operation): Html {
  const parameters = (op.parameters ?? []).filter((p): p is Exclude<Parameter, { $ref: string }> => !("$ref" in p));
  return html`<section class="op" id="${method}-${path}">
    <h3><span class="method">${method.toUpperCase()}</span> <code>${path}</code></h3>
    <p><strong>${op.summary ?? ""}</strong> ${op.description ?? ""}</p>
    ${parameters.length
      ? html`<table>
          <tr><th>Parameter</th><th>In</th><th>Type</th><th>Rules</th><th>Description</th></tr>
          ${parameters.map(
            (p) => html`<tr>
              <td><code>${p.name}</code>${p.required ? "" : html` <small>optional</small>`}</td>
              <td>${p.in}</td><td>${typeOf(p.schema)}</td><td>${constraints(p.schema)}</td><td>${p.description ?? ""}</td>
            </tr>`,
          )}
        </table>`
      : ""}
    <table>
      <tr><th>Status</th><th>Meaning</th><th>Body</th></tr>
      ${Object.entries(op.responses as Record<string, Response>).map(
        ([status, response]) => html`<tr>
          <td>${status}</td><td>${response.description}</td>
          <td>${Object.values(response.content ?? {}).map((media) => typeOf(media.schema))}</td>
        </tr>`,
      )}
    </table>
  </section>`;
}

function schemaSection(name: string, schema: Schema): Html {
  if ("$ref" in schema) return html``;
  const required = new Set(schema.required ?? []);
  return html`<section id="schema-${name}">
    <h3>${name}</h3>
    ${schema.description ? html`<p>${schema.description}</p>` : ""}
    ${schema.properties
      ? html`<table>
          <tr><th>Field</th><th>Type</th><th>Description</th></tr>
          ${Object.entries(schema.properties).map(
            ([field, s]) => html`<tr>
              <td><code>${field}</code>${required.has(field) ? "" : html` <small>optional</small>`}</td>
              <td>${typeOf(s)}</td><td>${"description" in s ? s.description : ""}</td>
            </tr>`,
          )}
        </table>`
      : html`<p>${typeOf(schema)}</p>`}
  </section>`;
}

const STYLE = raw(`
  body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1d2430; }
  h1 { margin-bottom: 0; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d8dde6; }
  .op { margin: 1.5rem 0; } .method { background: #1f6feb; color: #fff; border-radius: 4px; padding: 0 .4rem; font-size: .85em; }
  table { border-collapse: collapse; width: 100%; margin: .5rem 0; font-size: .92em; }
  th, td { border: 1px solid #d8dde6; padding: .3rem .5rem; text-align: left; vertical-align: top; }
  th { background: #f3f5f8; } code { font-size: .95em; } small { color: #6b7280; }
`);

export function renderReference(doc: OpenApiDocument): Html {
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item[method];
      return op ? [operation(method, path, op)] : [];
    }),
  );
  const schemas = Object.entries(doc.components?.schemas ?? {});
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${doc.info.title} ${doc.info.version}</title>
  <style>${STYLE}</style>
</head>
<body>
  <h1>${doc.info.title}</h1>
  <p>Version ${doc.info.version} · OpenAPI ${doc.openapi} · <a href="openapi.json">openapi.json</a></p>
  <p>${doc.info.description ?? ""}</p>
  <h2>Endpoints</h2>
  ${operations}
  <h2>Schemas</h2>
  ${schemas.map(([name, schema]) => schemaSection(name, schema))}
</body>
</html>`;
}
