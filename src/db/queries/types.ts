/**
 * What the read queries return: JSON built in SQL (shapes.ts) in the shape of the API's
 * resources, typed as the response schemas decode it (src/schemas/resources.ts), so each
 * resource is declared once and the SQL's readers and the contract cannot drift apart. Money is
 * a Decimal (src/domain/decimal.ts): read from the JSON text without a trip through a double
 * (exact-json.ts), written with every digit.
 */
import type { z } from "@hono/zod-openapi";
import type * as Query from "../../schemas/queries";
import type * as Schema from "../../schemas/resources";

export type { Lookup } from "../../schemas/params";

export type Broker = z.output<typeof Schema.Broker>;
export type Staff = z.output<typeof Schema.Staff>;
export type Account = z.output<typeof Schema.Account>;
/** The account as a holding or a transaction embeds it. */
export type AccountRef = z.output<typeof Schema.AccountRef>;
export type Customer = z.output<typeof Schema.Customer>;
export type Holding = z.output<typeof Schema.Holding>;
export type Transaction = z.output<typeof Schema.Transaction>;
/** What one account received: a cash dividend or a share credit. */
export type CorporateAction = z.output<typeof Schema.CorporateAction>;
/**
 * Stats as served: the stored figures, plus the valuation read with them from the holdings and
 * their latest closes, which a price change moves without the stored figures changing.
 */
export type ServedStats = z.output<typeof Schema.Stats>;
/** What the customer's served holdings are worth at their stocks' latest closes (docs/valuation.md). */
export type Valuation = ServedStats["valuation"];

/** One page of a trade history, as its query schema decodes it: codes in canonical case, dates YYYY-MM-DD. */
export type HistoryFilters = z.output<typeof Query.HistoryQuery>;
/** One page of a customer's corporate actions: the history's filters, dates on ex_date. */
export type CorporateActionFilters = z.output<typeof Query.CorporateActionQuery>;
