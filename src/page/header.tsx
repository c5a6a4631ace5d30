/**
 * The top of every page: the customer and their staff member when known, when the figures were
 * last brought from the back office (the last complete sync run), and the other language's link.
 */
import type { Aggregate } from "../db/queries";
import { useView } from "./view";

export function PageHeader(props: { aggregate?: Aggregate; syncedAt?: string | null; otherLanguageHref: string }) {
  const { lang, t, f } = useView();
  const { aggregate } = props;
  const other = lang === "vi" ? "en" : "vi";
  return (
    <div class="top">
      <div>
        {aggregate ? (
          <>
            <h1>{t.title(aggregate.customer.name)}</h1>
            <p class="staff">
              {t.staff}: <strong>{aggregate.customer.staff.name}</strong> ·{" "}
              <a href={`mailto:${aggregate.customer.staff.email}`}>{aggregate.customer.staff.email}</a>
            </p>
            <p class="synced" data-synced={props.syncedAt ?? ""}>
              {props.syncedAt ? (
                <>
                  {t.syncedAt} <time datetime={props.syncedAt}>{f.instant(props.syncedAt)}</time> {t.vietnamTime}
                </>
              ) : (
                t.notSynced
              )}
            </p>
          </>
        ) : null}
      </div>
      <a href={props.otherLanguageHref} hreflang={other} lang={other}>
        {t.otherLanguage}
      </a>
    </div>
  );
}
