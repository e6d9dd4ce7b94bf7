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
  /** Epoch ms of the product's last change where it is kept (a platform's updated_at), when given: older upserts change nothing. */
  readonly sourceUpdatedAt?: number;
  /** Epoch ms of the last upsert. */
  readonly updatedAt: number;
}
