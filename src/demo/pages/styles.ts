// The demo shop's stylesheet: a calm, readable theme. The widget's look is set through its CSS
// custom properties (--pw-…) on :root, the way a merchant's theme would. Narrow screens (≤ 720 px)
// get one row of collections that scrolls sideways; wider ones wrap it, so none is out of sight.

export const DEMO_CSS = `
:root{--ink:#23211d;--muted:#6d675d;--paper:#faf7f2;--card:#fff;--line:#e7e1d6;--accent:#2f5d50;--accent-soft:#e4eee9;--sale:#a23b2a;
--pw-text:var(--ink);--pw-muted:var(--muted);--pw-accent:var(--accent);--pw-card-bg:var(--card);--pw-border:var(--line);--pw-sale:var(--sale);--pw-radius:12px;--pw-card-width:190px;--pw-title-font:Georgia,'Times New Roman',serif;--pw-title-size:1.4rem}
*{box-sizing:border-box}
body{margin:0;background:var(--paper);color:var(--ink);font:16px/1.55 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}
a{color:var(--accent)}
h1,h2,h3{font-family:Georgia,'Times New Roman',serif;font-weight:600;line-height:1.2}
.wrap{max-width:1160px;margin:0 auto;padding:0 24px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.skip{position:absolute;left:-999px}.skip:focus{left:12px;top:12px;background:#fff;padding:8px;z-index:9}
header.site{background:var(--card);border-bottom:1px solid var(--line)}
header.site .top{display:flex;align-items:center;gap:24px;min-height:68px;flex-wrap:wrap}
header.site .brand{margin-right:auto}
.brand{font-family:Georgia,serif;font-size:1.45rem;color:var(--ink);text-decoration:none;font-weight:600}
.brand small{display:block;font:12px system-ui,sans-serif;color:var(--muted);letter-spacing:.06em;text-transform:uppercase}
nav.collections{display:flex;flex-wrap:wrap;gap:4px 18px;font-size:.92rem;padding:0 0 12px}
nav.collections a{color:var(--ink);text-decoration:none}nav.collections a:hover,nav.collections a[aria-current]{color:var(--accent);text-decoration:underline}
.shopper{display:flex;align-items:center;gap:8px;font-size:.9rem;min-width:0;max-width:100%}
.shopper select{min-width:0;max-width:280px}.shopper select,.shopper button{font:inherit;padding:6px 8px;border:1px solid var(--line);border-radius:8px;background:#fff;color:var(--ink)}
.cart{font-size:.9rem;color:var(--muted)}
main{padding:28px 0 48px}
.hero{background:var(--accent-soft);border-radius:16px;padding:32px 36px;margin-bottom:12px}
.hero h1{margin:0 0 8px;font-size:2.1rem}.hero p{margin:0;max-width:60ch;color:#3b4a44}
.crumbs{font-size:.9rem;color:var(--muted);margin-bottom:12px}.crumbs a{color:var(--muted)}
.tiles{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:12px;list-style:none;padding:0;margin:12px 0 0}
.tiles a{display:block;background:var(--card);border:1px solid var(--line);border-radius:12px;padding:14px 16px;text-decoration:none;color:var(--ink);height:100%}
.tiles a:hover{border-color:var(--accent)}.tiles strong{display:block;font-family:Georgia,serif;font-size:1.05rem}.tiles span{font-size:.82rem;color:var(--muted)}
.grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(180px,1fr));gap:18px;list-style:none;padding:0}
.grid a{display:block;color:var(--ink);text-decoration:none}.grid img{width:100%;height:auto;aspect-ratio:1;object-fit:cover;border-radius:12px;display:block;background:#f3efe8}
.grid .t{display:block;margin-top:8px;font-size:.95rem}.grid .p{color:var(--muted);font-size:.9rem}
.product{display:grid;grid-template-columns:minmax(260px,440px) 1fr;gap:40px;align-items:start}
.product img{width:100%;border-radius:16px;display:block}
.product .vendor{text-transform:uppercase;letter-spacing:.06em;font-size:.8rem;color:var(--muted);margin:0}
.product h1{font-size:2rem;margin:6px 0 12px}
.price{font-size:1.3rem;font-weight:600}.price s{color:var(--muted);font-weight:400;font-size:1rem;margin-left:8px}.price.sale .now{color:var(--sale)}
.buy{margin:20px 0;display:flex;gap:12px;align-items:center}
.buy button{font:inherit;font-weight:600;background:var(--accent);color:#fff;border:0;border-radius:999px;padding:12px 28px;cursor:pointer}
.buy button:disabled{background:var(--muted);cursor:default}
.tags{display:flex;gap:6px;flex-wrap:wrap;list-style:none;padding:0}.tags li{background:var(--card);border:1px solid var(--line);border-radius:999px;padding:2px 10px;font-size:.8rem;color:var(--muted)}
.note{font-size:.88rem;color:var(--muted);border-left:3px solid var(--line);padding-left:12px;max-width:70ch}
footer{border-top:1px solid var(--line);color:var(--muted);font-size:.85rem;padding:24px 0 40px}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
@media (max-width:720px){.product{grid-template-columns:1fr}.hero{padding:24px}
nav.collections{flex-wrap:nowrap;overflow-x:auto;white-space:nowrap;overscroll-behavior-x:contain;scroll-padding-inline:24px;scrollbar-width:thin;margin:0 -24px;padding:0 24px 12px}
.shopper label{white-space:nowrap}}
`;
