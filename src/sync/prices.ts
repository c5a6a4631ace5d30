/**
 * The latest close of each stock (latest_prices), kept in step with stock_prices (docs/valuation.md).
 *
 * A change to a close only marks its stock code (prices_pending, written with the price rows),
 * and one statement per run then recomputes the latest live close of the marked codes from the
 * (stock_code, trade_date desc) index: a price day costs one probe per code it closed, and no
 * customer's stored metrics are touched, since a price is a valuation, not P&L. A soft-deleted
 * or rejected latest close falls back to the previous live one; a code left with no live close
 * loses its row, and its holdings read as unpriced.
 *
 * The codes are taken and the table written in one statement, so a run stopped before it
 * leaves the marks for the next run, and one stopped after it leaves nothing half done.
 */
import { sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { latestPrices, pricesPending, stockPrices } from "../db/schema";
import { live } from "../db/served";
import { newestFirst } from "../db/order";
import { int, oneRow, type Statement } from "./database";

const p = alias(stockPrices, "p");

/**
 * Brings the marked codes' latest closes up to date; returns how many codes had a close changed,
 * at any date: the performance series values every point with the close of its day, so an old
 * close moves the prices version as a new one does.
 */
export function refreshLatestPrices(): Statement<number> {
  return oneRow(
    sql`with codes as (delete from ${pricesPending} returning stock_code),
      -- One probe of the (stock_code, trade_date desc) index per code, not every close of the
      -- marked codes sorted: a price day reads as many closes as it marked codes.
      fresh as (
        select c.stock_code, l.trade_date, l.close_price
        from codes c
        cross join lateral (
          select p.trade_date, p.close_price from ${stockPrices} p
          where p.stock_code = c.stock_code and ${live(p)}
          -- Two live closes of one day exist only until the source's unique key reaches the target
          -- (a row deleted outright and booked again): the newer change wins meanwhile.
          order by ${newestFirst(sql`p.trade_date`, sql`p.source_updated_at`, sql`p.id`)}
          limit 1
        ) l
      ),
      removed as (
        delete from ${latestPrices} l
        where l.stock_code in (select stock_code from codes)
          and not exists (select from fresh f where f.stock_code = l.stock_code)
        returning l.stock_code
      ),
      written as (
        insert into ${latestPrices} as l (stock_code, trade_date, close_price)
        select stock_code, trade_date, close_price from fresh
        on conflict (stock_code) do update set trade_date = excluded.trade_date, close_price = excluded.close_price
        where (l.trade_date, l.close_price) is distinct from (excluded.trade_date, excluded.close_price)
        returning l.stock_code
      )
      -- Postgres runs the writes above to completion whether or not this reads them.
      select (select count(*) from codes)::int as changed`,
    (r) => int(r.changed),
  );
}
