// A catalog product as the engine keeps it: normalized, bare ids, immutable (replaced on update).

export interface Product {
  /** Bare product id. */
  readonly id: string;
  /** Platform segment of the output gid (e.g. "shopify"). */
  readonly platform: string;
  readonly title: string;
  readonly handle: string;
  readonly image: string | null;
  /** Decimal amounts as strings, as the spec's wire format has them. */
  readonly price: string | null;
  readonly compareAtPrice: string | null;
  readonly vendor: string | null;
  readonly productType: string | null;
  readonly tags: readonly string[];
  /** Bare collection ids. */
  readonly collections: readonly string[];
  readonly available: boolean;
  /** Bought again and again (consumables): personalized may recommend it after a purchase. */
  readonly repurchasable?: boolean;
  /**
   * The merchant's own attributes (material, season, rating …), filterable like the built-in ones
   * (engine/filters): at most 32, names not those of a built-in attribute (see api/product.ts).
   */
  readonly attributes?: Readonly<Record<string, string | number>>;
  /** Where the product comes from when a pull keeps it (a scheduled feed: what the feed no longer lists becomes unavailable). */
  readonly source?: 'feed';
  /** Epoch ms of the product's last change where it is kept (a platform's updated_at), when given: older upserts change nothing. */
  readonly sourceUpdatedAt?: number;
  /** Epoch ms of the last upsert. */
  readonly updatedAt: number;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}

function sameAttributes(a: Product['attributes'], b: Product['attributes']): boolean {
  const keysA = Object.keys(a ?? {});
  return keysA.length === Object.keys(b ?? {}).length && keysA.every((key) => a![key] === b?.[key]);
}

/** Whether two versions of a product say the same thing (the time of their upsert aside). */
export function sameProduct(a: Product, b: Product): boolean {
  return (
    a.id === b.id &&
    a.platform === b.platform &&
    a.title === b.title &&
    a.handle === b.handle &&
    a.image === b.image &&
    a.price === b.price &&
    a.compareAtPrice === b.compareAtPrice &&
    a.vendor === b.vendor &&
    a.productType === b.productType &&
    a.available === b.available &&
    (a.repurchasable ?? false) === (b.repurchasable ?? false) &&
    a.sourceUpdatedAt === b.sourceUpdatedAt &&
    a.source === b.source &&
    sameList(a.tags, b.tags) &&
    sameList(a.collections, b.collections) &&
    sameAttributes(a.attributes, b.attributes)
  );
}
