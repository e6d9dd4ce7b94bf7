// The cart attribute the storefront widget keeps a shopper's taken recommendations in, on platforms
// whose orders carry the cart's attributes (Shopify: note_attributes). Its value is a JSON object from
// bare product id to [recId, widgetId?]: the recommendation the shopper clicked the product in, or
// added it to the cart from. Its name starts with "_", so Shopify's checkout never shows it. Imported
// by the widget's bundle and by the order mapping alike: one definition of the format.

export const REC_IDS_ATTRIBUTE = '_pairwise_recs';
/** Products kept in it, the most recently taken first out: a cart's worth, and a short value. */
export const MAX_CART_RECS = 24;
/** Longest value read from an order (24 entries take about 2 KB). */
export const MAX_CART_RECS_LENGTH = 4096;

/** The attribute's value: bare product id → [recId, widgetId?]. */
export type CartRecs = Record<string, [string] | [string, string]>;
