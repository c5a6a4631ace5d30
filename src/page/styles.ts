/**
 * The page's only stylesheet, inlined so the page is one request, and allowed by its hash in
 * the Content-Security-Policy rather than by 'unsafe-inline': nothing injected into the page
 * could style it, let alone run. Colours keep text at 4.5:1 or more against its background.
 */
export const STYLESHEET = `
:root{--ink:#1b1f24;--muted:#4a5360;--line:#d5dae1;--panel:#f5f7fa;--accent:#0a4fb3;--gain:#0b6b31;--loss:#b0261d;color-scheme:light}
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--ink);background:#fff}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible,summary:focus-visible,[tabindex]:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
.skip{position:absolute;left:-9999px;top:0;background:#fff;padding:.5rem 1rem}
.skip:focus{left:.5rem;z-index:1}
header,main,footer{max-width:76rem;margin:0 auto;padding:0 1rem}
header{padding-top:1rem;padding-bottom:.5rem;border-bottom:1px solid var(--line)}
.top{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.5rem;align-items:baseline}
h1{font-size:1.5rem;margin:.25rem 0}
h2{font-size:1.2rem;margin:2rem 0 .75rem}
h3{font-size:1rem;margin:1rem 0 .5rem}
.staff,.synced{margin:.25rem 0;color:var(--muted)}
.synced{font-size:.9rem}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(15rem,1fr));gap:.75rem;margin:0}
.cards div{background:var(--panel);border:1px solid var(--line);border-radius:.5rem;padding:.75rem}
.cards dt{color:var(--muted);font-size:.9rem}
.cards dd{margin:.25rem 0 0;font-size:1.2rem;font-weight:600}
.cards dd small{display:block;font-size:.85rem;font-weight:400;color:var(--muted)}
.gain{color:var(--gain)}
.loss{color:var(--loss)}
.charts{display:grid;gap:1rem}
figure{margin:0}
figcaption{font-weight:600;margin-bottom:.25rem}
.chart{width:100%;height:auto;display:block;background:var(--panel);border:1px solid var(--line);border-radius:.5rem}
.chart text{font-size:15px;fill:var(--muted)}
.chart .grid line{stroke:var(--line);stroke-width:1}
.chart .grid line.zero{stroke:var(--muted)}
.chart .series polyline{fill:none;stroke:var(--accent);stroke-width:2.5}
.chart .series circle{fill:var(--accent)}
.chart .series polyline.second{stroke:var(--ink);stroke-dasharray:6 4}
.legend{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:.25rem 0;padding:0;font-size:.9rem;color:var(--muted)}
.legend span{display:inline-block;width:1.5rem;height:0;border-top:3px solid var(--accent);vertical-align:middle;margin-right:.35rem}
.legend .second span{border-top:3px dashed var(--ink)}
nav.ranges ul{display:flex;flex-wrap:wrap;gap:.5rem;list-style:none;margin:0 0 1rem;padding:0}
nav.ranges a{display:inline-block;padding:.3rem .6rem;border:1px solid var(--line);border-radius:.375rem;min-width:2.75rem;text-align:center}
nav.ranges a[aria-current]{background:var(--accent);border-color:var(--accent);color:#fff;font-weight:600}
.today dd{font-size:1.5rem}
td.wrap,th.wrap{white-space:normal;overflow-wrap:anywhere}
.chart .series circle.negative{fill:var(--loss)}
.chart .bars rect{fill:var(--accent)}
details{margin:.5rem 0}
summary{cursor:pointer;color:var(--accent)}
.scroll{overflow-x:auto;border:1px solid var(--line);border-radius:.5rem}
.scroll+.scroll{margin-top:1rem}
table{border-collapse:collapse;width:100%;font-size:.95rem}
caption{text-align:left;font-weight:600;padding:.5rem .75rem}
th,td{padding:.45rem .6rem;border-bottom:1px solid var(--line);text-align:left;white-space:nowrap}
thead th{background:var(--panel);font-weight:600;white-space:normal;vertical-align:bottom}
td small{display:block}
.cards+.charts{margin-top:1rem}
.positions .scroll{max-width:40rem}
.hint{color:var(--muted);font-size:.9rem;margin:0 0 .5rem}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
tfoot th,tfoot td{font-weight:600}
.bar{display:inline-block;vertical-align:middle;margin-left:.5rem}
.bar rect.track{fill:var(--line)}
.bar rect.fill{fill:var(--accent)}
.deals{display:grid;gap:1rem}
form.filters{display:grid;grid-template-columns:repeat(auto-fit,minmax(10rem,1fr));gap:.75rem;align-items:end;background:var(--panel);border:1px solid var(--line);border-radius:.5rem;padding:.75rem;margin-bottom:1rem}
form.filters label{display:flex;flex-direction:column;gap:.25rem;font-size:.9rem;color:var(--ink)}
input,select,button{font:inherit;padding:.4rem .5rem;border:1px solid var(--muted);border-radius:.375rem;background:#fff;color:var(--ink);min-height:2.5rem}
button{background:var(--accent);border-color:var(--accent);color:#fff;font-weight:600;cursor:pointer}
.actions{display:flex;gap:.75rem;align-items:center}
.problem{border:2px solid var(--loss);border-radius:.5rem;padding:.75rem 1rem;margin:0 0 1rem}
.problem h3{margin-top:0;color:var(--loss)}
nav.pages{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;justify-content:space-between;margin:1rem 0}
nav.pages ul{display:flex;gap:1rem;list-style:none;margin:0;padding:0}
footer{color:var(--muted);font-size:.9rem;padding-top:2rem;padding-bottom:2rem}
data:not(.text),time,.nowrap{white-space:nowrap}
.cards dd small,.cards dd small data{white-space:normal}
@media (min-width:60rem){.charts{grid-template-columns:1fr 1fr}}
@media (max-width:47.99rem){
.scroll{overflow:visible;border:0;border-radius:0}
.cards{grid-template-columns:1fr}
table,tbody,tfoot,tr,th,td{display:block;width:100%}
thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%);white-space:nowrap}
caption{display:block;padding:.5rem 0}
tbody tr,tfoot tr{display:flex;flex-direction:column;border:1px solid var(--line);border-radius:.5rem;margin:0 0 .5rem;padding:.25rem .75rem}
tbody th,tfoot th{order:-1}
tbody th,tfoot th{border:0;padding:.35rem 0;font-weight:600}
td{display:flex;justify-content:space-between;align-items:baseline;gap:1rem;border:0;border-top:1px solid var(--line);padding:.35rem 0;text-align:right}
td::before{content:attr(data-label);color:var(--muted);text-align:left;white-space:normal;font-weight:400}
td:empty{display:none}
td.wrap{text-align:right}
.bar{display:none}
}
`;

let hash: Promise<string> | undefined;

/** The stylesheet's CSP source expression, 'sha256-…', computed once per isolate. */
export function stylesheetHash(): Promise<string> {
  hash ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(STYLESHEET)).then((digest) => {
    const base64 = btoa(String.fromCharCode(...new Uint8Array(digest)));
    return `'sha256-${base64}'`;
  });
  return hash;
}
