// The items of a Google Merchant Center feed in its tab-separated form: a header row of attribute
// names (with or without the g: prefix, any case), then one item a line. Streamed through csv-parse.
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { FeedEntry } from './xml-feed.js';

const MAX_TEXT = 16_384;

export async function* tsvFeedItems(input: Readable): AsyncGenerator<FeedEntry> {
  const parser = input.pipe(parse({ delimiter: '\t', bom: true, relax_quotes: true, relax_column_count: true, skip_empty_lines: true, info: true, quote: false }));
  let header: string[] | undefined;
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    if (header === undefined) {
      header = record.map((name) => name.trim().toLowerCase().replace(/^g:/, ''));
      if (!header.includes('id')) {
        yield { line: info.lines, error: `the header row names no id column (it names ${header.slice(0, 8).join(', ')}): not a product feed` };
        return;
      }
      continue;
    }
    if (record.length > header.length) {
      yield { line: info.lines, error: `${record.length} cells, but the header has ${header.length} columns` };
      continue;
    }
    const item: Record<string, string> = {};
    record.forEach((cell, i) => {
      if (cell.trim() !== '') item[header![i]!] = cell.trim().slice(0, MAX_TEXT);
    });
    yield { line: info.lines, item };
  }
  if (header === undefined) yield { line: 1, error: 'empty file: expected a header row of feed attributes' };
}
