// The widget placeholders the demo pages use: exactly what a merchant's theme would render.
import { html, type Html } from '../../html.js';

export interface WidgetSpec {
  strategy: string;
  title: string;
  widgetId: string;
  productId?: string;
  collectionId?: string;
  limit?: number;
  /** false: only what the strategy itself produced (no backfill), hidden when empty. */
  backfill?: boolean;
}

export function widget(spec: WidgetSpec): Html {
  return html`<div data-pairwise="${spec.strategy}" data-widget-id="${spec.widgetId}" data-title="${spec.title}" data-limit="${spec.limit ?? 8}"${
    spec.productId ? html` data-product-id="${spec.productId}"` : ''
  }${spec.collectionId ? html` data-collection-id="${spec.collectionId}"` : ''}${spec.backfill === false ? html` data-backfill="false"` : ''}></div>`;
}
