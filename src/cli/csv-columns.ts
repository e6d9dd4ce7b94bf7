// The CSV columns of catalog and event imports: which exist, which a header must name, and how a
// row's cells become the fields the API validates.

export interface CsvLayout {
  /** What the file holds, for messages. */
  readonly what: 'catalog' | 'events';
  readonly columns: readonly string[];
  readonly required: readonly string[];
  readonly fromRow: (row: Record<string, string>) => unknown;
}

function list(cell: string | undefined): string[] | undefined {
  if (cell === undefined || cell === '') return undefined;
  return cell.split(/[;|]/).map((s) => s.trim()).filter((s) => s !== '');
}

function optional(cell: string | undefined): string | undefined {
  return cell === undefined || cell === '' ? undefined : cell;
}

/** Lists (tags, collections) are separated by `;` or `|`. */
export const CATALOG_CSV: CsvLayout = {
  what: 'catalog',
  columns: ['id', 'title', 'handle', 'image', 'price', 'compareAtPrice', 'vendor', 'productType', 'tags', 'collections', 'available'],
  required: ['id', 'title'],
  fromRow: (row) => ({
    id: row.id,
    title: row.title,
    handle: optional(row.handle),
    image: optional(row.image),
    price: optional(row.price),
    compareAtPrice: optional(row.compareAtPrice),
    vendor: optional(row.vendor),
    productType: optional(row.productType),
    tags: list(row.tags),
    collections: list(row.collections),
    available: row.available === undefined || row.available === '' ? undefined : !/^(false|0|no)$/i.test(row.available),
  }),
};

export const EVENTS_CSV: CsvLayout = {
  what: 'events',
  columns: ['type', 'productId', 'sessionId', 'customerId', 'widgetId', 'messageId', 'timestamp', 'orderId'],
  required: ['type', 'productId', 'sessionId'],
  fromRow: (row) => {
    const timestamp = optional(row.timestamp);
    return {
      type: row.type,
      productId: row.productId,
      sessionId: row.sessionId,
      customerId: optional(row.customerId),
      widgetId: optional(row.widgetId),
      messageId: optional(row.messageId),
      timestamp: timestamp !== undefined && /^\d+$/.test(timestamp) ? Number(timestamp) : timestamp,
      metadata: optional(row.orderId) ? { orderId: row.orderId } : undefined,
    };
  },
};

export interface HeaderCheck {
  /** Why the file cannot be read with this header (nothing of it is imported), if so. */
  error?: string;
  /** Columns the header names that this layout does not know: ignored, worth a warning. */
  unknown: string[];
}

/** Checks a header row: it must name the required columns; names are matched exactly. */
export function checkHeader(header: readonly string[], layout: CsvLayout): HeaderCheck {
  const unknown = header.filter((name) => !layout.columns.includes(name));
  const missing = layout.required.filter((name) => !header.includes(name));
  const duplicated = header.filter((name, i) => name !== '' && header.indexOf(name) !== i);
  const expected = `the ${layout.what} columns are ${layout.columns.join(',')} (${layout.required.join(', ')} required)`;
  if (missing.length > 0) {
    const other = layout === CATALOG_CSV ? EVENTS_CSV : CATALOG_CSV;
    const looksLikeOther = other.required.every((name) => header.includes(name));
    const hint = looksLikeOther ? `; this header is a${other.what === 'events' ? 'n events' : ' catalog'} header` : '';
    return { error: `the header lacks ${missing.join(', ')}: ${expected}${hint}`, unknown };
  }
  if (duplicated.length > 0) return { error: `the header names ${[...new Set(duplicated)].join(', ')} more than once`, unknown };
  return { unknown };
}

/** The row as named cells; only the layout's columns are kept. */
export function rowOf(header: readonly string[], cells: readonly string[], layout: CsvLayout): Record<string, string> {
  const row: Record<string, string> = {};
  for (let i = 0; i < header.length; i++) if (layout.columns.includes(header[i]!)) row[header[i]!] = cells[i]!;
  return row;
}
