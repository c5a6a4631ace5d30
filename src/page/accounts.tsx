/** The customer's accounts, one row per broker with its account numbers, wrapped to fit a phone's width. */
import type { Aggregate } from "../db/queries";
import { DataTable, Section } from "./kit";
import { useView } from "./view";

export function Accounts(props: { aggregate: Aggregate }) {
  const { t } = useView();
  const byBroker = new Map<string, { name: string; code: string; numbers: string[] }>();
  for (const account of props.aggregate.customer.accounts) {
    const entry = byBroker.get(account.broker.id) ?? { name: account.broker.name, code: account.broker.code, numbers: [] };
    entry.numbers.push(account.account_no);
    byBroker.set(account.broker.id, entry);
  }
  return (
    <Section id="accounts" title={t.accounts}>
      <DataTable
        label={t.accounts}
        empty={t.noAccounts}
        columns={[
          { head: t.broker, names: true, wrap: true, cell: (b) => b.name },
          { head: t.brokerCode, cell: (b) => b.code },
          {
            head: t.accountNumbers,
            wrap: true,
            // Each number whole on its line; the list wraps between them.
            cell: (b) =>
              b.numbers.map((n, i) => (
                <>
                  {i > 0 ? ", " : null}
                  <span class="nowrap">{n}</span>
                </>
              )),
          },
        ]}
        rows={[...byBroker.values()]}
      />
    </Section>
  );
}
