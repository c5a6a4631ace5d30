/** The HTML document around every page: language, landmarks, the inline stylesheet, noindex. */
import type { Child } from "hono/jsx";
import { STYLESHEET } from "./styles";
import { useView } from "./view";

export function Document(props: { title: string; header: Child; children: Child }) {
  const { lang, t } = useView();
  return (
    <html lang={lang}>
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex, nofollow" />
        <meta name="referrer" content="no-referrer" />
        {/* An empty icon: otherwise browsers ask for /favicon.ico, a 404 that counts against the client. */}
        <link rel="icon" href="data:," />
        <title>{props.title}</title>
        <style dangerouslySetInnerHTML={{ __html: STYLESHEET }} />
      </head>
      <body>
        <a class="skip" href="#main">
          {t.skip}
        </a>
        <header>{props.header}</header>
        <main id="main" tabindex={-1}>
          {props.children}
        </main>
        <footer>
          <p>{t.footer}</p>
        </footer>
      </body>
    </html>
  );
}
