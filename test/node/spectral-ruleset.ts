/**
 * The Spectral ruleset the served document is held to (test/node/lint.test.ts): Spectral's
 * `spectral:oas`, less the rules that do not fit this API, each with the reason beside it.
 */
import { oas } from "@stoplight/spectral-rulesets";

export const ruleset = {
  extends: [[oas as never, "recommended"]],
  rules: {
    // The repository names no team, address or page to give as a contact, and a made-up one
    // sends readers nowhere: the document has none.
    "info-contact": "off",
  },
};
