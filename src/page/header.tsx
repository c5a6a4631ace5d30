/** The top of every page: the customer and their staff member when known, and the other language's link. */
import type { Aggregate } from "../db/queries";
import { useView } from "./view";

export function PageHeader(props: { aggregate?: Aggregate; otherLanguageHref: string }) {
  const { lang, t } = useView();
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
          </>
        ) : null}
      </div>
      <a href={props.otherLanguageHref} hreflang={other} lang={other}>
        {t.otherLanguage}
      </a>
    </div>
  );
}
