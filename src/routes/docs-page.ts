/**
 * The HTML of `GET /api/docs`: every operation of the OpenAPI document, rendered on the server,
 * so a reader sees the list at once (a few kilobytes, nothing that blocks rendering), and a
 * button that loads Scalar's full reference, with "try it", in its place (`reference.js`).
 */
import { html } from "hono/html";
import type { HtmlEscapedString } from "hono/utils/html";

interface Operation {
  summary?: string;
  description?: string;
  tags?: string[];
}

export interface DescribedDocument {
  info: { title: string; version: string; description?: string };
  tags?: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation> | undefined>;
}

export interface PageScripts {
  /** The small script that loads the full reference when the reader asks for it. */
  loader: string;
  /** The id of the button that asks for it, hidden until that script shows it. */
  tryIt: string;
  /** Scalar's configuration, read by its script from the `#api-reference` element. */
  configuration: string;
  /** Where the OpenAPI document is served. */
  document: string;
}

/** Readable without any script, and light: the first paint needs nothing but this page. */
const STYLESHEET = `
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1f;background:#fff}
#operations{max-width:60rem;margin:0 auto;padding:1rem 1.25rem 3rem}
h1{font-size:1.6rem;margin:.5rem 0}h1 small{font-size:.9rem;font-weight:400;color:#4a4a55}
h2{font-size:1.2rem;margin:1.75rem 0 .25rem;border-bottom:1px solid #d7d7de}
ul{list-style:none;padding:0;margin:0}li{padding:.5rem 0;border-bottom:1px solid #eeeef2}
.method{display:inline-block;min-width:3.2rem;font:600 .8rem/1.6 ui-monospace,monospace;color:#fff;background:#23632d;border-radius:.25rem;text-align:center;margin-right:.5rem}
.method.post{background:#8a4b00}code{font:.9rem ui-monospace,monospace;overflow-wrap:anywhere}
.summary{display:block;font-weight:600}.description{margin:.15rem 0 0;color:#3d3d46}
a{color:#0b57d0}
.try{min-height:2.5rem}
#try-it{font:inherit;font-weight:600;color:#fff;background:#0b57d0;border:0;border-radius:.375rem;padding:.5rem 1rem;cursor:pointer}
#try-it:hover{background:#0842a0}#try-it:focus-visible{outline:3px solid #1b1b1f;outline-offset:2px}#try-it:disabled{cursor:progress}
`;

const METHODS = ["get", "post", "put", "patch", "delete"];

/**
 * The document's descriptions are CommonMark (what OpenAPI says they are); of it, they use
 * code spans: `X-Admin-Key`. Each becomes a <code>, the rest stays text, escaped as any text of
 * the page is. A backtick with no partner is printed as it is.
 */
export function inlineMarkdown(text: string) {
  const parts = text.split(/`([^`]+)`/);
  return parts.map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part));
}

function listed(document: DescribedDocument) {
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item?.[method]).map((method) => ({ method, path, operation: item![method]! })),
  );
  const tags = document.tags ?? [];
  const untagged = operations.filter(({ operation }) => !tags.some((tag) => operation.tags?.includes(tag.name)));
  return [
    ...tags.map((tag) => ({ ...tag, operations: operations.filter(({ operation }) => operation.tags?.includes(tag.name)) })),
    { name: "Other", description: undefined, operations: untagged },
  ].filter((group) => group.operations.length > 0);
}

export function referencePage(document: DescribedDocument, scripts: PageScripts): HtmlEscapedString | Promise<HtmlEscapedString> {
  const { title, version, description } = document.info;
  return html`<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="description" content="Every operation of the ${title}, with requests to try">
  <title>${title} ${version}</title>
  <link rel="icon" href="data:,">
  <style>${STYLESHEET}</style>
  <script src="${scripts.loader}" defer></script>
</head>
<body>
  <main id="operations">
    <h1>${title} <small>${version}</small></h1>
    ${description ? html`<p>${inlineMarkdown(description)}</p>` : ""}
    <p>The <a href="${scripts.document}">OpenAPI document</a> describes every field.</p>
    <p class="try"><button type="button" id="${scripts.tryIt}" hidden>Open the interactive reference, with requests to try</button></p>
    ${listed(document).map(
      (group) => html`<section>
      <h2>${group.name}</h2>
      ${group.description ? html`<p>${inlineMarkdown(group.description)}</p>` : ""}
      <ul>
        ${group.operations.map(
          ({ method, path, operation }) => html`<li>
          <span class="summary">${operation.summary ?? `${method.toUpperCase()} ${path}`}</span>
          <span class="method ${method}">${method.toUpperCase()}</span><code>${path}</code>
          ${operation.description ? html`<p class="description">${inlineMarkdown(operation.description)}</p>` : ""}
        </li>`,
        )}
      </ul>
    </section>`,
    )}
  </main>
  <script id="api-reference" data-configuration="${scripts.configuration}"></script>
</body>
</html>`;
}
