// The items of a Google Merchant Center feed in XML (RSS 2.0 <item> or Atom <entry>, attributes in
// the g: namespace), streamed through saxes: each item's attributes by name with the line it starts
// on, read as the bytes arrive, so a feed of any size takes the memory of one chunk and one item.
// XML that is not well formed ends the feed with one error at its line.
import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import type { FeedItem } from './feed-item.js';

const GOOGLE = 'http://base.google.com/ns/1.0';
/** Characters of one attribute's text kept (longer: cut), and attributes kept per item: a hostile feed cannot grow an item without bound. */
const MAX_TEXT = 16_384;
const MAX_FIELDS = 200;

export type FeedEntry = { line: number; item: FeedItem } | { line: number; error: string };

export async function* xmlFeedItems(input: Readable): AsyncGenerator<FeedEntry> {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const ready: FeedEntry[] = [];
  /** The open item: its fields, its own (unprefixed) ones apart, and the line it started on. */
  let item: { google: FeedItem; plain: FeedItem; line: number; depth: number } | undefined;
  let depth = 0;
  // The first fault ends the feed: nothing after it (saxes reads on) is taken.
  let fault: { line: number; message: string } | undefined;
  /** The attribute whose text is being read (a direct child of the item), if any. */
  let field: { name: string; google: boolean; text: string } | undefined;

  // An item is taken once the parser has read past its close tag without a fault: saxes reports a
  // close tag that does not match before it reports the fault.
  let tentative: FeedEntry | undefined;
  const commit = () => {
    if (tentative !== undefined) ready.push(tentative);
    tentative = undefined;
  };
  parser.on('opentag', (tag) => {
    if (fault !== undefined) return;
    commit();
    depth++;
    if (item === undefined) {
      if (tag.local === 'item' || tag.local === 'entry') item = { google: {}, plain: {}, line: parser.line, depth };
      return;
    }
    if (depth !== item.depth + 1) return;
    const google = tag.uri === GOOGLE;
    field = { name: tag.local.toLowerCase(), google, text: '' };
    // Atom's <link href="…"/> holds the product's page in an attribute.
    const href = tag.attributes.href;
    if (!google && field.name === 'link' && typeof href === 'object' && href.value) field.text = href.value;
  });
  parser.on('text', (text) => {
    commit();
    if (field !== undefined && field.text.length < MAX_TEXT) field.text += text.slice(0, MAX_TEXT - field.text.length);
  });
  parser.on('cdata', (text) => {
    if (field !== undefined && field.text.length < MAX_TEXT) field.text += text.slice(0, MAX_TEXT - field.text.length);
  });
  parser.on('closetag', () => {
    if (fault !== undefined) return;
    commit();
    if (item !== undefined && field !== undefined && depth === item.depth + 1) {
      const target = field.google ? item.google : item.plain;
      if (Object.keys(target).length < MAX_FIELDS && target[field.name] === undefined) target[field.name] = field.text.trim();
      field = undefined;
    } else if (item !== undefined && depth === item.depth) {
      // g: attributes first; the item's own title, link and description where the g: ones are absent.
      tentative = { line: item.line, item: { ...item.plain, ...item.google } };
      item = undefined;
    }
    depth--;
  });

  parser.on('error', (error) => {
    tentative = undefined;
    fault ??= { line: parser.line, message: error.message.replace(/^(?:[^:]*:)?\d+:\d+: /, '') };
  });
  let sawRoot = false;
  input.setEncoding('utf8');
  for await (const chunk of input) {
    parser.write(chunk as string);
    sawRoot ||= depth > 0 || ready.length > 0;
    if (fault !== undefined) break;
    yield* ready.splice(0);
  }
  if (fault === undefined) parser.close();
  if (fault === undefined) commit();
  yield* ready.splice(0);
  if (fault !== undefined) {
    yield { line: fault.line, error: `not well-formed XML: ${fault.message}` };
    return;
  }
  if (!sawRoot) yield { line: 1, error: 'no XML elements: not a product feed' };
}
