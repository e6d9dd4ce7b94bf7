// The demo shop's 404: an unknown page or product, in the shop's own look, with ways back in
// (home, the collections, what is trending) rather than an API error body.
import { html } from '../../html.js';
import { layout } from './layout.js';
import type { PageContext } from './shop-view.js';
import { widget } from './widgets.js';

export function notFoundPage(ctx: PageContext, what: string): string {
  const body = html`
<section class="hero missing"><h1>We couldn’t find that page</h1>
<p>${what} Try the collections above, or go back to the <a href="/demo">home page</a>.</p></section>
${widget({ strategy: 'trending', widgetId: 'not-found-trending', title: 'Trending this week', limit: 8 })}`;
  return layout(ctx, { title: 'Not found', body });
}
