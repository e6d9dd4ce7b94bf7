// The page shell of every demo page: head with the stylesheet and the widget's script tag (the one
// line a merchant adds), the header with collections and the sample-shopper switch, the footer.
import { html, raw, type Html } from '../../html.js';
import { CURRENCY, LOCALE, type PageContext } from './shop-view.js';
import { DEMO_CSS } from './styles.js';

export interface PageOptions {
  title: string;
  /** Collection id of the current page, for aria-current. */
  collectionId?: string;
  body: Html;
}

function shopperSwitch(ctx: PageContext): Html {
  const current = ctx.shopper?.customerId ?? '';
  const options = ctx.storefront.shoppers().map(
    (s) => html`<option value="${s.customerId}"${raw(s.customerId === current ? ' selected' : '')}>${s.customerId} · ${s.orders} orders${s.favourite ? ` · loves ${s.favourite}` : ''}</option>`,
  );
  return html`<form class="shopper" method="get" action="/demo/sign-in">
    <label for="shopper">Shopping as</label>
    <select id="shopper" name="shopper" onchange="this.form.submit()"><option value="">Guest (signed out)</option>${options}</select>
    <input type="hidden" name="back" value="${ctx.path}"><noscript><button>Switch</button></noscript>
  </form>`;
}

// The theme's own cart counter, fed by both add-to-cart paths (the product page's button and the
// widget cards' pairwise:add-to-cart event): the integration a merchant writes.
const CART_SCRIPT = raw(`<script>(function(){var k='demo.cart',n=Number(sessionStorage.getItem(k)||0);function show(){var e=document.getElementById('cart-count');if(e)e.textContent=String(n)}function add(){n++;sessionStorage.setItem(k,String(n));show()}document.addEventListener('DOMContentLoaded',show);document.addEventListener('pairwise:add-to-cart',add);document.addEventListener('click',function(e){if(e.target.closest&&e.target.closest('[data-pairwise-add-to-cart]'))add()})})();</script>`);

export function layout(ctx: PageContext, page: PageOptions): string {
  const { storefront } = ctx;
  const nav = storefront.collections.map(
    (c) => html`<a href="/demo/collections/${c.handle}"${raw(c.id === page.collectionId ? ' aria-current="page"' : '')}>${c.title}</a>`,
  );
  return (
    '<!doctype html>' +
    html`<html lang="en-GB"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<link rel="icon" href="data:,">
<title>${page.title} · Ribbon &amp; Loft (Pairwise demo)</title>
<style>${raw(DEMO_CSS)}</style>
${CART_SCRIPT}
<script src="/widget.js" data-key="${storefront.publicKey}" data-link-base="/demo/products/" data-currency="${CURRENCY}" data-locale="${LOCALE}"${ctx.shopper ? html` data-customer-id="${ctx.shopper.customerId}" data-customer-token="${storefront.customerToken(ctx.shopper.customerId)}"` : ''} async></script>
</head><body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="wrap">
  <div class="top">
    <a class="brand" href="/demo">Ribbon &amp; Loft<small>a Pairwise demo shop</small></a>
    ${shopperSwitch(ctx)}
    <span class="cart" aria-live="polite">Cart: <span id="cart-count">0</span></span>
  </div>
  <nav class="collections" aria-label="Collections">${nav}</nav>
</div></header>
<main id="main"><div class="wrap">${page.body}</div></main>
<footer><div class="wrap">Every carousel on these pages comes from the live Pairwise API with the demo store's public key, and every
impression, click, view, add-to-cart, save and hide you make here is sent back to it. Products and purchases come from the
UCI "Online Retail" dataset (CC BY 4.0); vendors, collections, images and browsing are simulated.</div></footer>
</body></html>`.text
  );
}
