// Product and collection ids on the wire: bare ("123") or global ("gid://shopify/Product/123").
// Inside Pairwise every id is the bare form; output ids are the gid form.

const BARE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const GID = /^gid:\/\/([A-Za-z0-9][A-Za-z0-9-]{0,31})\/(Product|Collection)\/([A-Za-z0-9][A-Za-z0-9._-]{0,63})$/;

export interface ParsedId {
  id: string;
  /** The platform named by a gid, undefined for a bare id. */
  platform?: string;
}

/** Parses a bare id or a gid of the given resource; undefined when it is neither. */
export function parseId(raw: string, resource: 'Product' | 'Collection'): ParsedId | undefined {
  if (BARE_ID.test(raw)) return { id: raw };
  const match = GID.exec(raw);
  if (match === null || match[2] !== resource) return undefined;
  return { id: match[3]!, platform: match[1] };
}

/** Whether `raw` is a bare id (no gid form): what every id is inside Pairwise. */
export function isBareId(raw: string): boolean {
  return BARE_ID.test(raw);
}

export function normalizeProductId(raw: string): string | undefined {
  return parseId(raw, 'Product')?.id;
}

export function normalizeCollectionId(raw: string): string | undefined {
  return parseId(raw, 'Collection')?.id;
}

export function productGid(platform: string, id: string): string {
  return `gid://${platform}/Product/${id}`;
}
