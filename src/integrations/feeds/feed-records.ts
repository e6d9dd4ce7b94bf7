// A product feed (Google Merchant Center, XML or tab-separated) as the catalog records an import
// writes: each item mapped (feed-item.ts), variants merged into their product (feed-groups.ts), and
// each item that cannot be a product refused at its line while the rest go on.
import type { Readable } from 'node:stream';
import { feedRecord } from './feed-item.js';
import { FeedGroups } from './feed-groups.js';
import { tsvFeedItems } from './tsv-feed.js';
import { xmlFeedItems } from './xml-feed.js';

export type FeedFormat = 'feed-xml' | 'feed-tsv';

/** A product record and the line it starts on, or why the item there is not one. */
export type FeedOutput = { line: number; value: unknown; error?: undefined } | { line: number; error: string; value?: undefined };

/** What the first bytes of a file say it is: an XML feed, a tab-separated one, or neither (undefined). */
export function sniffFeed(head: string): FeedFormat | undefined {
  const text = head.replace(/^\uFEFF/, '').trimStart();
  if (/^<(\?xml|rss|feed)\b/.test(text)) return 'feed-xml';
  const firstLine = text.split(/\r?\n/, 1)[0]!;
  if (firstLine.includes('\t') && firstLine.split('\t').some((name) => /^(g:)?id$/i.test(name.trim()))) return 'feed-tsv';
  return undefined;
}

export async function* feedRecords(input: Readable, format: FeedFormat): AsyncGenerator<FeedOutput> {
  const groups = new FeedGroups();
  for await (const entry of format === 'feed-xml' ? xmlFeedItems(input) : tsvFeedItems(input)) {
    if ('error' in entry) {
      yield entry;
      continue;
    }
    const mapped = feedRecord(entry.item);
    if ('error' in mapped) yield { line: entry.line, error: mapped.error };
    else yield* groups.add(mapped, entry.line);
  }
  yield* groups.end();
}
