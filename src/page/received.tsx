/**
 * What the accounts received from issuers, apart from the trade history: the latest cash
 * dividends (shares entitled, gross, tax withheld, net) and the latest share credits (stock
 * dividends, bonus shares, splits), each the first page of GET /api/corporate-actions/:slug for
 * its `type`, read in the page's batch (src/db/queries/customer-page.ts), with how many there are
 * in all when the page holds fewer.
 */
import type { CorporateActionList, Received as ReceivedLists } from "../db/queries";
import type { CorporateAction } from "../schemas";
import { Count, DataTable, Day, Money, Section, accountName, type Column } from "./kit";
import { useView } from "./view";

/** One kind under its heading: its table, what is left out of it, or that there is none. */
function Kind(props: {
  id: string;
  caption: string;
  empty: string;
  list: CorporateActionList;
  columns: Column<CorporateAction>[];
}) {
  const { t, f } = useView();
  const { list } = props;
  if (list.data.length === 0) {
    return (
      <>
        <h3>{props.caption}</h3>
        <p>{props.empty}</p>
      </>
    );
  }
  return (
    <>
      <DataTable
        label={props.caption}
        id={props.id}
        caption={props.caption}
        columns={props.columns}
        rows={list.data}
        rowAttributes={(a) => ({ "data-id": a.id })}
      />
      {list.total > list.data.length ? (
        <p data-total={String(list.total)}>{t.latestOf(f.count(list.data.length), f.count(list.total))}</p>
      ) : null}
    </>
  );
}

export function Received(props: { received: ReceivedLists }) {
  const { t } = useView();
  const { dividends, credits } = props.received;
  const stock: Column<CorporateAction> = { head: t.stock, names: true, cell: (a) => a.stock_code };
  const exDate: Column<CorporateAction> = { head: t.exDate, cell: (a) => <Day iso={a.ex_date} /> };
  const account: Column<CorporateAction> = { head: t.account, cell: (a) => accountName(a.account) };
  return (
    <Section id="received" title={t.received}>
      {dividends.total + credits.total === 0 ? (
        <p>{t.receivedNothing}</p>
      ) : (
        <>
          <Kind
            id="cash_dividends"
            caption={t.cashDividends}
            empty={t.noDividends}
            list={dividends}
            columns={[
              exDate,
              { head: t.payDate, cell: (a) => <Day iso={a.pay_date} /> },
              stock,
              account,
              { head: t.sharesEntitled, num: true, cell: (a) => <Count value={a.quantity} /> },
              { head: t.dividendsGross, num: true, cell: (a) => <Money value={a.gross_amount} /> },
              { head: t.dividendsTax, num: true, cell: (a) => <Money value={a.tax} /> },
              { head: t.dividendNet, num: true, cell: (a) => <Money value={a.net_amount} /> },
            ]}
          />
          <Kind
            id="share_credits"
            caption={t.shareCredits}
            empty={t.noShareCredits}
            list={credits}
            columns={[exDate, stock, account, { head: t.sharesCredited, num: true, cell: (a) => <Count value={a.quantity} /> }]}
          />
        </>
      )}
    </Section>
  );
}
