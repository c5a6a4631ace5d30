/**
 * The response resources built in SQL with json_build_object/json_agg, so a customer and all it
 * embeds come back from one statement. Postgres writes a date as YYYY-MM-DD and a uuid as its
 * string, and money is written `::text`, a JSON string, so that no JSON.parse rounds it through
 * a double: decodeExact (../exact-json.ts) turns the fields the response schema marks as money
 * into Decimals, which gives the shapes of types.ts. A new money column is written `::text` too.
 *
 * Fragments name their tables unaliased, as drizzle renders them ("accounts"."id"): use each
 * where the tables it names are in scope. Lists end with the row id so their order is total.
 */
import { sql } from "drizzle-orm";
import type { CorporateAction, Customer, Holding, Transaction } from "./types";
import { accounts, brokers, corporateActions, customers, holdings, latestPrices, staff, transactions } from "../schema";
import { live, servedAccount } from "../served";

/** The customer's served accounts (src/db/served.ts); needs `customers` and `accounts` in scope. */
export const servedAccountOfCustomer = servedAccount(accounts, customers.id);

/** Needs `brokers` in scope. */
const brokerJson = sql`json_build_object('id', ${brokers.id}, 'name', ${brokers.name}, 'code', ${brokers.code})`;

/** The account as a holding or a transaction embeds it; needs `accounts` and `brokers`. */
const accountRefJson = sql`json_build_object('id', ${accounts.id}, 'account_no', ${accounts.accountNo}, 'broker', ${brokerJson})`;

/** Needs `customers` in scope. */
const customerAccountsJson = sql`coalesce((
  select json_agg(
    json_build_object(
      'id', ${accounts.id}, 'customer_id', ${accounts.customerId}, 'broker_id', ${accounts.brokerId},
      'account_no', ${accounts.accountNo}, 'broker', ${brokerJson})
    order by ${brokers.code}, ${accounts.accountNo}, ${accounts.id})
  from ${accounts} join ${brokers} on ${brokers.id} = ${accounts.brokerId}
  where ${servedAccountOfCustomer}
), '[]'::json)`;

/** The profile with staff and accounts; needs `customers` and its `staff` in scope. */
export const customerJson = sql<Customer>`json_build_object(
  'id', ${customers.id}, 'slug', ${customers.slug}, 'name', ${customers.name}, 'email', ${customers.email},
  'phone', ${customers.phone}, 'staff_id', ${customers.staffId},
  'staff', json_build_object('id', ${staff.id}, 'name', ${staff.name}, 'email', ${staff.email}),
  'accounts', ${customerAccountsJson})`;

/**
 * The customer's served holdings, each with its stock's latest close when it has one: the rows
 * both the portfolio and its valuation (valuation.ts) add up. Needs `customers` in scope.
 */
export const servedHoldingsWithPrices = sql`from ${holdings}
    join ${accounts} on ${accounts.id} = ${holdings.accountId}
    join ${brokers} on ${brokers.id} = ${accounts.brokerId}
    left join ${latestPrices} on ${latestPrices.stockCode} = ${holdings.stockCode}
  where ${servedAccountOfCustomer} and ${live(holdings)}`;

/** A holding at its latest close, exact: quantity × close has at most 4 decimals, rounded once. */
export const holdingMarketValue = sql`(${holdings.quantity} * ${latestPrices.closePrice})`;

/** Holdings in every account, by stock code then account; needs `customers` in scope. */
export const portfolioJson = sql<Holding[]>`coalesce((
  select json_agg(
    json_build_object(
      'id', ${holdings.id}, 'stock_code', ${holdings.stockCode}, 'isin_code', ${holdings.isinCode},
      'quantity', ${holdings.quantity}, 'avg_cost', ${holdings.avgCost}::text, 'total_cost', ${holdings.totalCost}::text,
      'market_price', ${latestPrices.closePrice}::text, 'price_date', ${latestPrices.tradeDate},
      'market_value', round(${holdingMarketValue}, 2)::text,
      'unrealized_pnl', round(${holdingMarketValue} - ${holdings.totalCost}, 2)::text,
      'account', ${accountRefJson})
    order by ${holdings.stockCode}, ${brokers.code}, ${accounts.accountNo}, ${holdings.id})
  ${servedHoldingsWithPrices}
), '[]'::json)`;

/** Needs `transactions` and its `accounts` and `brokers` in scope. */
export const transactionJson = sql<Transaction>`json_build_object(
  'id', ${transactions.id}, 'trade_date', ${transactions.tradeDate}, 'stock_code', ${transactions.stockCode},
  'isin_code', ${transactions.isinCode}, 'type', ${transactions.type}, 'quantity', ${transactions.quantity},
  'price', ${transactions.price}::text, 'total_value', ${transactions.totalValue}::text, 'fee', ${transactions.fee}::text,
  'personal_tax', ${transactions.personalTax}::text, 'account', ${accountRefJson})`;

/** Needs `corporate_actions` and its `accounts` and `brokers` in scope; net_amount is exact (numeric). */
export const corporateActionJson = sql<CorporateAction>`json_build_object(
  'id', ${corporateActions.id}, 'type', ${corporateActions.type}, 'stock_code', ${corporateActions.stockCode},
  'isin_code', ${corporateActions.isinCode}, 'ex_date', ${corporateActions.exDate}, 'pay_date', ${corporateActions.payDate},
  'quantity', ${corporateActions.quantity}, 'gross_amount', ${corporateActions.grossAmount}::text,
  'tax', ${corporateActions.tax}::text, 'net_amount', (${corporateActions.grossAmount} - ${corporateActions.tax})::text,
  'account', ${accountRefJson})`;
