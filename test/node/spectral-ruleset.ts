/**
 * The Spectral ruleset the served document is held to (test/node/lint.test.ts): Spectral's
 * `spectral:oas` and the OWASP API Security Top 10 ruleset (`@stoplight/spectral-owasp-ruleset`),
 * less the rules that do not fit this API, each with the reason beside it.
 *
 * What the API is, for those reasons: read-only and key-less (ARCHITECTURE.md "The slug is the capability"): a customer's data is
 * reached through an unguessable slug, the only inputs are path and query parameters (no
 * request body anywhere but the admin sync's, which has none), and the only credential is the
 * admin key of the two admin routes.
 *
 * The OWASP rules on input sizes (`string-limit`, `string-restricted`, `integer-limit-legacy`)
 * are kept where inputs are, the parameters: every path and query string has a `maxLength` and
 * a pattern, format or enum, every integer a minimum and a maximum. On responses they would ask
 * the API to promise bounds on what it sends, which guards against nothing.
 */
import owasp from "@stoplight/spectral-owasp-ruleset";
import { oas } from "@stoplight/spectral-rulesets";

type Rule = { given: unknown; [key: string]: unknown };
const OWASP_RULES = (owasp as unknown as { rules: Record<string, Rule> }).rules;

/** An OWASP rule, applied to the parameters only (see above). */
function onParameters(name: string, type: "string" | "integer") {
  const rule = OWASP_RULES[name];
  if (!rule) throw new Error(`the OWASP ruleset has no rule ${name}`);
  return { ...rule, given: `$.paths[*][*].parameters[?(@.schema && @.schema.type == "${type}")].schema` };
}

export const ruleset = {
  extends: [
    [oas as never, "recommended"],
    // Every rule: this ruleset marks none "recommended", so that mode would check nothing.
    [owasp as never, "all"],
  ],
  rules: {
    // The repository names no team, address or page to give as a contact, and a made-up one
    // sends readers nowhere: the document has none.
    "info-contact": "off",

    "owasp:api4:2023-string-limit": onParameters("owasp:api4:2023-string-limit", "string"),
    "owasp:api4:2023-string-restricted": onParameters("owasp:api4:2023-string-restricted", "string"),
    "owasp:api4:2023-integer-limit-legacy": onParameters("owasp:api4:2023-integer-limit-legacy", "integer"),
    // Kept everywhere: generated clients choose their integer type from the format.
    // "owasp:api4:2023-integer-format"

    // Key-less by design: the unguessable slug is the capability (ARCHITECTURE.md "The slug is the capability"), and a security
    // scheme on the public reads would tell clients to send a credential that does not exist.
    "owasp:api2:2023-read-restricted": "off",
    // Mass assignment is about request bodies, and this API takes none. The two open objects
    // are the month maps of the analytics (`monthly_trade_counts`, `monthly_realized_pnl`),
    // keyed by YYYY-MM as their descriptions say: OpenAPI 3.0 has no `propertyNames` to state
    // it (the 3.0 validator refuses the keyword), and no bound on months is a true one.
    "owasp:api3:2023-no-additionalProperties": "off",
    "owasp:api3:2023-constrained-additionalProperties": "off",
    // Responses are not inputs: a list's length is the data's (a customer's holdings), or
    // already bounded by a parameter (`per_page`).
    "owasp:api4:2023-array-limit": "off",
    // Rate limits are Cloudflare's rate-limiting bindings, which expose no quota or remaining
    // count to put in X-RateLimit-* headers; a 429 with Retry-After is documented on exactly
    // the routes that have a limiter (the lookups and the admin routes), and
    // test/node/openapi.test.ts holds that it appears nowhere else.
    "owasp:api4:2023-rate-limit": "off",
    "owasp:api4:2023-rate-limit-responses-429": "off",
    // Only the routes that take a parameter to validate answer 400, and only the admin routes
    // answer 401; each documents exactly the statuses it answers (test/node/openapi.test.ts).
    "owasp:api8:2023-define-error-validation": "off",
    "owasp:api8:2023-define-error-responses-401": "off",
    // CORS headers are set by middleware from CORS_ORIGINS, only on cross-origin requests:
    // they describe the deployment, not an operation's answer.
    "owasp:api8:2023-define-cors-origin": "off",
    // The document names one server, the origin it was served from, whatever the deployment:
    // the reader is already on that environment, and the document cannot know its name.
    "owasp:api9:2023-inventory-environment": "off",
  },
};
