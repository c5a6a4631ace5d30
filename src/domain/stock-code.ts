/**
 * What a stock code may be: 1 to 10 uppercase letters or digits, the form the API shows codes in
 * and filters by (src/schemas/queries.ts uppercases what a caller types). The sync sets aside a
 * back-office row with any other code (src/sync/streams.ts), and the configuration refuses a
 * BENCHMARK_CODE outside it (src/env.ts): such a code could never be found. The pattern is
 * written once, in the dialect JavaScript and Postgres regular expressions share.
 */
export const STOCK_CODE_MAX_LENGTH = 10;
export const STOCK_CODE_SQL = `^[A-Z0-9]{1,${STOCK_CODE_MAX_LENGTH}}$`;
export const STOCK_CODE = new RegExp(STOCK_CODE_SQL);
