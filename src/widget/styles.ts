// The widget's stylesheet, injected once, first in <head>. Everything is themable with CSS custom
// properties set on any ancestor (docs/widget.md). Selectors are single classes: they
// beat a theme's element rules (a{…}, button{…}) and lose to its class rules, which come later.

export const STYLE_ID = 'pairwise-widget-style';

const CSS = `
.pw-carousel{--_gap:var(--pw-gap,16px);--_w:var(--pw-card-width,200px);--_r:var(--pw-radius,10px);--_fg:var(--pw-text,#1f1d1a);--_mut:var(--pw-muted,#6b665e);--_acc:var(--pw-accent,#2f5d50);--_accfg:var(--pw-accent-text,#fff);--_card:var(--pw-card-bg,#fff);--_bd:var(--pw-border,#e6e1d8);--_sale:var(--pw-sale,#b3261e);font-family:var(--pw-font,inherit);color:var(--_fg);margin:var(--pw-margin,24px 0);position:relative}
.pw-carousel[hidden]{display:none}
.pw-head{display:flex;align-items:center;justify-content:space-between;gap:12px;margin-bottom:12px}
.pw-title{font-size:var(--pw-title-size,1.25rem);font-family:var(--pw-title-font,inherit);font-weight:600;margin:0}
.pw-nav{display:flex;gap:6px}
.pw-nav button,.pw-card button{font:inherit;cursor:pointer;border:1px solid var(--_bd);background:var(--_card);color:var(--_fg);border-radius:999px}
.pw-nav button{width:36px;height:36px;font-size:18px;line-height:1}
.pw-nav button:disabled{opacity:.35;cursor:default}
.pw-track{display:flex;gap:var(--_gap);overflow-x:auto;scroll-snap-type:x mandatory;scroll-behavior:smooth;list-style:none;margin:0;padding:4px 2px 12px;scrollbar-width:thin}
.pw-card{position:relative;flex:0 0 var(--_w);scroll-snap-align:start;display:flex;flex-direction:column;background:var(--_card);border:1px solid var(--_bd);border-radius:var(--_r);overflow:hidden;animation:pw-in .25s ease-out}
.pw-link{display:flex;flex-direction:column;flex:1;color:inherit;text-decoration:none;padding-bottom:4px}
.pw-media{display:block;aspect-ratio:1;background:var(--pw-image-bg,#f3efe8)}
.pw-img{display:block;width:100%;height:100%;object-fit:cover}
.pw-vendor{color:var(--_mut);font-size:.75rem;letter-spacing:.04em;text-transform:uppercase;margin:10px 12px 2px}
.pw-name{font-size:.95rem;line-height:1.3;margin:0 12px}
.pw-link:hover .pw-name{text-decoration:underline}
.pw-price{margin:6px 12px 10px;display:flex;gap:8px;align-items:baseline;font-weight:600}
.pw-price.pw-sale .pw-now{color:var(--_sale)}
.pw-was{color:var(--_mut);font-weight:400;font-size:.85em}
.pw-card .pw-add{margin:auto 12px 12px;height:36px;font-size:.9rem;font-weight:600;white-space:nowrap;background:var(--_acc);color:var(--_accfg);border-color:var(--_acc)}
.pw-tools{position:absolute;top:8px;right:8px;display:flex;gap:6px}
.pw-tools button{width:32px;height:32px;padding:0;font-size:.9rem;line-height:1;background:color-mix(in srgb,var(--_card) 88%,transparent)}
.pw-save[aria-pressed=true]{color:var(--_sale);border-color:var(--_sale)}
.pw-carousel a:focus-visible,.pw-carousel button:focus-visible{outline:3px solid var(--pw-focus,var(--_acc));outline-offset:2px}
.pw-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
@keyframes pw-in{from{opacity:0}to{opacity:1}}
@media (prefers-reduced-motion:reduce){.pw-track{scroll-behavior:auto}.pw-card{animation:none}}
`;

export function injectStyles(): void {
  if (document.getElementById(STYLE_ID) !== null) return;
  const style = document.createElement('style');
  style.id = STYLE_ID;
  style.textContent = CSS;
  // First in <head>: the theme's stylesheets come later and win ties.
  document.head.insertBefore(style, document.head.firstChild);
}
