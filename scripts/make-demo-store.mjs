#!/usr/bin/env node
// make-demo-store.mjs — builds the Pairwise demo store from the UCI Online Retail dataset.
//
// Owns (and overwrites) exactly these files:
//   data/demo/products.json     400 most-purchased products, with simulated merchandising fields
//   data/demo/collections.json  keyword-derived collections
//   data/demo/events.csv        event history: real purchases + simulated browsing around them
// data/demo/README.md is hand-written and documents this script; it is not generated here.
//
// Usage: node scripts/make-demo-store.mjs path/to/online-retail.csv.gz
//    or: PAIRWISE_DATASET=path/to/online-retail.csv.gz node scripts/make-demo-store.mjs
// The input is the UCI "Online Retail" dataset (https://archive.ics.uci.edu/dataset/352/online+retail)
// as a gzipped CSV with the spreadsheet's header (see data/demo/README.md).
// Deterministic: no clock, no Math.random; every random choice comes from a seeded mulberry32
// stream keyed by a stable string (StockCode, InvoiceNo), so reruns give byte-identical files.
// Plain Node 20 ESM, no dependencies.

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INPUT = process.argv[2] ?? process.env.PAIRWISE_DATASET;
if (!INPUT) {
  console.error('make-demo-store: name the dataset file: node scripts/make-demo-store.mjs path/to/online-retail.csv.gz (or set PAIRWISE_DATASET)');
  process.exit(2);
}
if (!fs.existsSync(INPUT)) {
  console.error(`make-demo-store: ${INPUT}: no such file (it should be the UCI "Online Retail" dataset as a gzipped CSV)`);
  process.exit(2);
}
const OUT_DIR = path.join(ROOT, 'data', 'demo');

const PRODUCT_COUNT = 400;
const FIRST_PRODUCT_ID = 1001;
const FIRST_COLLECTION_ID = 501;
const MIN_COLLECTION_SIZE = 15;
const WINDOW_START = '2011-09-10'; // last ~90 days of the data (which ends 2011-12-09 12:50)
const LAST_EVENT_OFFSET = 3600; // the dataset's last invoice becomes "one hour before seeding"
const MAX_LINES_PER_INVOICE = 30;
// Budget for events.csv: whole days are dropped, oldest first, until both hold. The full 90-day window
// simulates to ~279k rows / ~13.7 MB, so in practice the row budget decides (about the last 3.5 weeks).
const MAX_EVENT_ROWS = 90_000;
const MAX_EVENT_BYTES = 8 * 1024 * 1024;
const SEED = 'pairwise-demo-v1';

// Fee / adjustment codes that are not products: postage (POST, DOT), manual (M, m), carriage (C2),
// discount (D), samples (S), bank and Amazon fees, commission (CRUK), bad debt (B).
const NON_PRODUCT_CODES = new Set(['POST', 'DOT', 'M', 'm', 'C2', 'D', 'S', 'BANK CHARGES', 'AMAZONFEE', 'CRUK', 'B']);

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

/** 32-bit FNV-1a hash of a string. */
function hash32(str, seed = 0x811c9dc5) {
  let h = seed >>> 0;
  for (let i = 0; i < str.length; i++) {
    h ^= str.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

function mulberry32(a) {
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A random stream keyed by a stable name, independent of generation order. */
function rngFor(key) {
  const r = mulberry32(hash32(`${SEED}:${key}`));
  return {
    float: r,
    int: (lo, hi) => lo + Math.floor(r() * (hi - lo + 1)), // inclusive
    chance: (p) => r() < p,
    pick: (arr) => arr[Math.floor(r() * arr.length)],
    shuffle(arr) {
      const a = arr.slice();
      for (let i = a.length - 1; i > 0; i--) {
        const j = Math.floor(r() * (i + 1));
        [a[i], a[j]] = [a[j], a[i]];
      }
      return a;
    },
  };
}

/** Fraction in [0,1) from a hash: stable per-key coin for catalog attributes. */
const unit = (key) => mulberry32(hash32(`${SEED}:${key}`))(); // FNV alone is too lumpy for this

/** Short, stable, collision-resistant id (~52 bits, base36). */
function shortId(key) {
  const a = hash32(key, 0x811c9dc5).toString(36).padStart(7, '0');
  const b = (hash32(key, 0x9e3779b9) & 0xfffff).toString(36).padStart(4, '0');
  return a + b;
}

// ---------------------------------------------------------------------------------------------
// Reading and cleaning the dataset

/** Parses one RFC 4180 line (no embedded newlines in this file). */
function parseCsvLine(line) {
  const fields = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= line.length) throw new Error(`unterminated quote: ${line}`);
        if (line[i] === '"') {
          if (line[i + 1] === '"') { value += '"'; i += 2; } else { i++; break; }
        } else {
          value += line[i++];
        }
      }
      fields.push(value);
      i++; // skip the comma after the closing quote
    } else {
      let end = line.indexOf(',', i);
      if (end < 0) end = line.length;
      fields.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return fields;
}

/** Dataset times are naive UK shop times; treat them as UTC seconds (only differences matter). */
const toSeconds = (s) => Date.parse(`${s.replace(' ', 'T')}Z`) / 1000;

function readCleanLines(file) {
  const text = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8');
  const rows = text.split('\n');
  const header = rows[0];
  if (header !== 'InvoiceNo,StockCode,Description,Quantity,InvoiceDate,UnitPrice,CustomerID,Country') {
    throw new Error(`unexpected header: ${header}`);
  }
  const lines = [];
  let raw = 0;
  for (let k = 1; k < rows.length; k++) {
    if (rows[k] === '') continue;
    raw++;
    const f = parseCsvLine(rows[k]);
    if (f.length !== 8) throw new Error(`row ${k}: expected 8 fields, got ${f.length}`);
    const [invoice, code, description, quantity, date, price, customer] = f;
    if (invoice.startsWith('C') || !(Number(quantity) > 0) || !(Number(price) > 0) || customer === '') continue;
    if (NON_PRODUCT_CODES.has(code)) continue;
    lines.push({ invoice, code, description: description.trim(), price, customer, time: toSeconds(date) });
  }
  return { raw, lines };
}

// ---------------------------------------------------------------------------------------------
// Text helpers

const SMALL_WORDS = new Set(['a', 'an', 'and', 'of', 'the', 'in', 'on', 'with', 'for', 'to', 'or', 'by', 'at', 'from']);
const WORD_FIXES = { LED: 'LED', UK: 'UK', USA: 'USA', PC: 'pc', HLDR: 'Holder', ASSTD: 'Assorted', ANT: 'Antique' };

/** "WHITE HANGING HEART T-LIGHT HOLDER" -> "White Hanging Heart T-Light Holder". */
function titleCase(description) {
  const cleaned = description
    .replace(/\s*,\s*/g, ', ')
    .replace(/\.(?=\s|$)/g, '') // stray full stops: "WHITE HEART." / "GLASS. STAR"
    .replace(/\bOF(\d)/g, 'OF $1') // "SET OF4"
    .replace(/\s+/g, ' ')
    .trim();
  const words = cleaned.split(' ');
  return words
    .map((word, i) => {
      if (WORD_FIXES[word]) return WORD_FIXES[word];
      const lower = word.toLowerCase();
      if (i > 0 && i < words.length - 1 && SMALL_WORDS.has(lower)) return lower;
      return lower.replace(/(^|[-/+(&])([a-z])/g, (_, sep, ch) => sep + ch.toUpperCase());
    })
    .join(' ');
}

function slugify(text) {
  return text
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/['’]/g, '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** Uppercase description as " WORD WORD " (hyphens/punctuation become spaces) for keyword tests. */
const keywordText = (description) => ` ${description.toUpperCase().replace(/[^A-Z0-9']+/g, ' ').trim()} `;
const hasKeyword = (text, kw) => text.includes(` ${kw.toUpperCase().replace(/[^A-Z0-9']+/g, ' ')} `);
const matchesAny = (text, keywords) => keywords.some((kw) => hasKeyword(text, kw));

// ---------------------------------------------------------------------------------------------
// Catalog rule tables

// Order = priority: a product's collections are its first three matches in this order.
const COLLECTION_RULES = [
  { title: 'Christmas', description: 'Decorations, crackers, wrap and treats for the festive season.',
    keywords: ['christmas', 'xmas', 'santa', 'reindeer', 'advent', 'bauble', 'stocking', 'cracker', 'crackers', 'snowflake', 'sleigh', 'angel', 'angels', 'star', 'tree', 'gingerbread', 'jingle'] },
  { title: 'Candles & Lights', description: 'T-light holders, lanterns, candles and fairy lights.',
    keywords: ['candle', 'candles', 'candleholder', 't-light', 'tealight', 'light', 'lights', 'lantern', 'led'] },
  { title: 'Kitchen & Baking', description: 'Cake stands, baking cases, mugs, teaware and pantry essentials.',
    keywords: ['cake', 'cakes', 'cakestand', 'baking', 'mug', 'cup', 'cups', 'teacup', 'teapot', 'tea set', 'tea towel', 'tea towels', 'tea glass', 'tea plate', 'teatime', 'tea time', 'jam', 'spoon', 'cutlery', 'jug', 'bowl', 'bowls', 'plate', 'plates', 'kitchen', 'scales', 'cookie', 'cutter', 'recipe', 'lunch box', 'snack', 'egg', 'bread', 'pantry', 'jelly', 'oven', 'popcorn', 'milk', 'spice', 'cocktail', 'washing up', 'coffee', 'sugar', 'biscuit', 'loaf'] },
  { title: 'Textiles', description: 'Cushions, tea towels, aprons, hot water bottles and soft furnishings.',
    keywords: ['cushion', 'towel', 'towels', 'apron', 'blanket', 'hot water bottle', 'hottie', 'oven glove', 'ribbon', 'ribbons', 'sewing', 'peg bag', 'knitted', 'quilt', 'throw', 'doormat'] },
  { title: 'Kids & Toys', description: 'Toys, games, craft kits and things for children.',
    keywords: ['toy', 'toys', 'doll', 'children', 'childrens', "children's", 'kids', 'spaceboy', 'game', 'games', 'playhouse', 'skittles', 'spinning', 'harmonica', 'skipping', 'dominoes', 'bingo', 'snakes', 'feltcraft', 'modelling', 'colouring', 'rounders', 'knitting nancy', 'money bank', 'piggy bank', 'building block', 'crayons', 'chalk', 'gliders', 'snap', 'catch', 'paint set', 'dinosaur', 'circus'] },
  { title: 'Stationery & Party', description: 'Cards, wrap, bunting, napkins, notebooks and party supplies.',
    keywords: ['card', 'cards', 'paper', 'wrap', 'party', 'bunting', 'napkin', 'napkins', 'notebook', 'notebooks', 'pen', 'pencil', 'pencils', 'sticker', 'stickers', 'tags', 'tissues', 'ruler', 'exercise', 'doilies', 'parasols', 'birthday', 'memo', 'chalkboard', 'shopping list', 'photo', 'album'] },
  { title: 'Jewellery & Accessories', description: 'Hand warmers, purses, wallets, umbrellas and little personal treats.',
    keywords: ['necklace', 'bracelet', 'earrings', 'hair', 'purse', 'wallet', 'lip gloss', 'fan', 'umbrella', 'parasol', 'key fob', 'hand warmer', 'charm', 'plasters', 'sewing kit', 'mirror', 'tissues'] },
  { title: 'Garden', description: 'For the garden, the shed and the birds.',
    keywords: ['garden', 'gardeners', 'bird', 'birds', 'birdcage', 'birdhouse', 'plant', 'pot', 'watering', 'flower', 'flowers', 'shed', 'owl', 'owls', 'toadstool', 'butterfly', 'kneeling pad'] },
  { title: 'Bags & Storage', description: 'Shoppers, lunch bags, storage tins, boxes and baskets.',
    keywords: ['bag', 'bags', 'box', 'boxes', 'tin', 'tins', 'storage', 'basket', 'shopper', 'chest', 'cabinet', 'drawer', 'container', 'jar', 'bin', 'mini cases', 'tidy', 'crate'] },
  { title: 'Home Decor', description: 'Signs, frames, clocks, hearts and hanging decorations for the home.',
    keywords: ['sign', 'frame', 'clock', 'mirror', 'heart', 'hearts', 'ornament', 'hanging', 'decoration', 'wicker', 'chalkboard', 'knob', 'hook', 'hanger', 'coat rack', 'shelf', 'doormat', 'block word', 'trellis', 'magnetic', 'cornice'] },
  { title: 'Vintage', description: 'Vintage, retro and antique-finish designs.',
    keywords: ['vintage', 'retro', "50's", 'antique', 'ant', 'edwardian', 'victorian', 'regency', 'baroque', 'bakelike', 'traditional', 'classic', 'diner', 'doily'] },
];
// Catch-all: products that match nothing above, plus giftable keyword matches with room left.
const CATCH_ALL = { title: 'Gifts', description: 'Little gifts, keepsakes and treats, for others or for yourself.',
  keywords: ['gift', 'love', 'keep calm', 'london', 'home sweet home', 'money bank', 'piggy bank', 'trinket', 'hand warmer', 'lip gloss', 'sweetheart', 'wallet', 'purse', 'charm', 'fan', 'plasters', 'mug', 'hot water bottle'] };

// First match wins; most specific phrases first.
const PRODUCT_TYPE_RULES = [
  ['Candle Holder', ['t-light holder', 't-light hldr', 'candleholder', 't-light glass', 't-light']],
  ['Cake Stand', ['cakestand', 'cake stand']],
  ['Cake Cases', ['cake cases', 'baking cases']],
  ['Trinket Box', ['trinket box', 'trinket pot']],
  ['Lunch Box', ['lunch box', 'snack boxes']],
  ['Hot Water Bottle', ['hot water bottle', 'hottie']],
  ['Hand Warmer', ['hand warmer']],
  ['Cookie Cutter', ['cookie cutter', 'cookie cutters']],
  ['Paper Chain Kit', ['paper chain kit']],
  ['Cutlery', ['cutlery']],
  ['Cushion', ['cushion']],
  ['Apron', ['apron']],
  ['Tea Towel', ['tea towels', 'tea towel']],
  ['Doormat', ['doormat']],
  ['Sign', ['sign']],
  ['Clock', ['clock']],
  ['Frame', ['frame', 'photo shelf']],
  ['Bunting', ['bunting']],
  ['Napkins', ['napkins', 'doilies', 'tissues']],
  ['Accessory', ['card wallet', 'wallet', 'purse', 'umbrella', 'parasol', 'fan', 'key fob', 'lip gloss', 'sewing kit']],
  ['Card', ['card', 'cards', 'gift tags']],
  ['Gift Wrap', ['wrap', 'ribbons', 'ribbon']],
  ['Cracker', ['cracker', 'crackers']],
  ['Stationery', ['notebooks', 'pencil', 'pencils', 'ruler', 'crayons', 'chalk', 'exercise books', 'memo board', 'chalkboard', 'black board', 'shopping list']],
  ['Candle', ['candles', 'candle']],
  ['Light', ['lights', 'light', 'lantern']],
  ['Toy', ['toy', 'doll', 'game', 'playhouse', 'skittles', 'spinning', 'harmonica', 'skipping', 'dominoes', 'bingo', 'snakes', 'modelling', 'colouring', 'rounders', 'building block', 'snap', 'gliders', 'knitting nancy', 'paint set']],
  ['Craft Kit', ['feltcraft', 'felt craft', 'christmas craft', 'kit']],
  ['Garden', ['garden', 'watering', 'plant', 'kneeling pad', 'birdcage']],
  ['Plasters', ['plasters']],
  ['Money Bank', ['money bank', 'piggy bank']],
  ['Teacup & Saucer', ['teacup']],
  ['Mug', ['mug']],
  ['Jug', ['jug']],
  ['Bowl', ['bowl', 'bowls']],
  ['Plate', ['plate', 'plates']],
  ['Tableware', ['cups', 'cup', 'teapot', 'tea set', 'tea glass', 'milk bottles', 'egg cup', 'cocktail parasols']],
  ['Kitchenware', ['scales', 'jam making', 'jelly moulds', 'bread bin', 'cookie jar', 'baking set', 'recipe', 'oven glove', 'washing up', 'cake tins', 'popcorn', 'kitchen']],
  ['Bag', ['bag', 'shopper']],
  ['Storage', ['tin', 'tins', 'box', 'boxes', 'storage', 'chest', 'cabinet', 'container', 'basket', 'mini cases']],
  ['Decoration', ['decoration', 'decorations', 'ornament', 'hanging', 'wicker', 'heart', 'star', 'tree', 'stocking', 'bells', 'trellis']],
  ['Drawer Knob', ['drawer knob', 'knob']],
  ['Hook', ['hook', 'hanger', 'coat rack']],
  ['Household', ['pegs', 'brush']],
];

// Made-up giftware brands. Design families share a vendor (first match wins); products with no
// distinctive design word go to one of the generalist vendors by StockCode hash.
const VENDOR_RULES = [
  ['Little Rocket Co.', ['spaceboy', 'dolly girl', 'circus', 'dinosaur', 'skull', 'skulls', 'playhouse', 'strongman', 'soldier', 'soldiers', 'feltcraft', 'felt craft', 'childrens', "children's", 'kids']],
  ['Dotty Lane', ['retrospot', 'polkadot', 'spotty', 'spot', 'gingham', 'strawberry']],
  ['Regent & Rose', ['regency', 'sweetheart', 'roses', 'english rose', 'rose']],
  ['Folk & Fable', ['paisley', 'suki', 'baroque', 'babushka', 'scandinavian', 'folkart']],
  ['Larder Lane', ['jam making', 'pantry', 'kitchen scales', 'cake cases', 'baking', 'enamel']],
  ['Wren & Willow', ['woodland', 'owl', 'owls', 'bird', 'birdy', 'garden', 'gardeners', 'leaf', 'toadstool', 'butterfly', 'apples', 'apple', 'pears']],
  ['Albion Gift Co.', ['london', 'union jack', 'union flag', 'keep calm', 'empire']],
  ['Heirloom & Co.', ['vintage', 'doily', "50's", 'antique', 'edwardian', 'victorian']],
  ['Old Tin Works', ['metal sign', 'diner', 'bakelike', 'sign']],
  ['Hearth & Glow', ['t-light', 'lantern', 'wicker', 'candle', 'candles', 'lights', 'hanging heart']],
];
const GENERALIST_VENDORS = ['Merriweather Crafts', 'Bramble & Finch', 'Paper Moon Gifts'];

const TAG_STOPWORDS = new Set([
  'a', 'an', 'and', 'of', 'the', 'in', 'on', 'with', 'for', 'to', 'or', 'by', 'at', 'from', 'set', 'sets', 'pack', 'box',
  'design', 'designs', 'small', 'large', 'mini', 'jumbo', 'giant', 'assorted', 'pc', 'piece', 'holder', 'hldr', 'asstd',
  'i', 'im', 'it', 'me', 'my', 'our', 'you', 'youre', 'one', 'no', 'this', 'way', 'over', 'so', 'am', 'take', 'leave',
  'please', 'finish', 's', 'ant', 'colour', 'colours', 'cm',
]);

// ---------------------------------------------------------------------------------------------
// Catalog

/** Per StockCode: distinct invoices, description counts, price counts. */
function summarizeCodes(lines) {
  const byCode = new Map();
  for (const l of lines) {
    let s = byCode.get(l.code);
    if (!s) byCode.set(l.code, (s = { code: l.code, invoices: new Set(), descriptions: new Map(), prices: new Map() }));
    s.invoices.add(l.invoice);
    if (l.description) s.descriptions.set(l.description, (s.descriptions.get(l.description) ?? 0) + 1);
    s.prices.set(l.price, (s.prices.get(l.price) ?? 0) + 1);
  }
  return [...byCode.values()].map((s) => ({
    code: s.code,
    popularity: s.invoices.size,
    description: mostFrequent(s.descriptions, (a, b) => (a < b ? -1 : 1)),
    unitPrice: mostFrequent(s.prices, (a, b) => Number(a) - Number(b)),
  }));
}

/** Key with the highest count; ties broken by `tieOrder` ascending. */
function mostFrequent(counts, tieOrder) {
  let best = null;
  for (const [key, n] of counts) {
    if (best === null || n > best[1] || (n === best[1] && tieOrder(key, best[0]) < 0)) best = [key, n];
  }
  return best ? best[0] : '';
}

function topCodes(summaries) {
  return summaries
    .slice()
    .sort((a, b) => b.popularity - a.popularity || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0))
    .slice(0, PRODUCT_COUNT);
}

function buildCollections(top) {
  const collections = [...COLLECTION_RULES, CATCH_ALL].map((rule, i) => ({
    id: String(FIRST_COLLECTION_ID + i),
    title: rule.title,
    handle: slugify(rule.title),
    description: rule.description,
    keywords: rule.keywords,
  }));
  const catchAll = collections[collections.length - 1];
  const membership = new Map();
  for (const s of top) {
    const text = keywordText(s.description);
    const matched = collections.filter((c) => matchesAny(text, c.keywords)).slice(0, 3);
    membership.set(s.code, matched.length ? matched : [catchAll]);
  }
  return { collections, membership };
}

function productTypeOf(text) {
  for (const [label, keywords] of PRODUCT_TYPE_RULES) if (matchesAny(text, keywords)) return label;
  return 'Gift';
}

function vendorOf(text, code) {
  for (const [vendor, keywords] of VENDOR_RULES) if (matchesAny(text, keywords)) return vendor;
  return GENERALIST_VENDORS[hash32(`vendor:${code}`) % GENERALIST_VENDORS.length];
}

function tagsOf(title, primaryCollection) {
  const words = title
    .toLowerCase()
    .replace(/'/g, '')
    .split(/[^a-z0-9-]+/)
    .map((w) => w.replace(/^-+|-+$/g, ''))
    .filter((w) => w.length >= 3 && !/^\d/.test(w) && !TAG_STOPWORDS.has(w));
  const tags = [...new Set(words)].slice(0, 5);
  if (!tags.includes(primaryCollection.handle)) tags.push(primaryCollection.handle);
  if (tags.length < 2) tags.push('gift');
  return [...new Set(tags)].slice(0, 6);
}

/** A higher "was" price that ends in 5 or 9 pence, about 20-35% above the price. */
function compareAtPriceOf(price, code) {
  const markup = 1.2 + 0.15 * unit(`markup:${code}`);
  let cents = Math.round(price * 100 * markup);
  while (cents % 10 !== 5 && cents % 10 !== 9) cents++;
  return (cents / 100).toFixed(2);
}

function buildProducts(top, membership) {
  const handles = new Set();
  return top.map((s, rank) => {
    const id = String(FIRST_PRODUCT_ID + rank);
    const title = titleCase(s.description);
    const text = keywordText(s.description);
    const cols = membership.get(s.code);
    const price = Number(s.unitPrice);
    let handle = slugify(title);
    for (let n = 2; handles.has(handle); n++) handle = `${slugify(title)}-${n}`;
    handles.add(handle);
    return {
      id,
      title,
      handle,
      image: `/demo/images/${id}.svg`,
      price: price.toFixed(2),
      compareAtPrice: unit(`sale:${s.code}`) < 0.2 ? compareAtPriceOf(price, s.code) : null,
      vendor: vendorOf(text, s.code),
      productType: productTypeOf(text),
      tags: tagsOf(title, cols[0]),
      collections: cols.map((c) => c.id),
      available: unit(`stock:${s.code}`) >= 0.03,
      sku: s.code,
    };
  });
}

function checkCatalog(products, collections) {
  const sizes = new Map(collections.map((c) => [c.id, 0]));
  for (const p of products) for (const c of p.collections) sizes.set(c, sizes.get(c) + 1);
  const small = collections.filter((c) => sizes.get(c.id) < MIN_COLLECTION_SIZE);
  if (small.length) {
    throw new Error(`collections below ${MIN_COLLECTION_SIZE} products: ${small.map((c) => `${c.title}=${sizes.get(c.id)}`).join(', ')}`);
  }
  if (new Set(products.map((p) => p.handle)).size !== products.length) throw new Error('duplicate product handle');
  return sizes;
}

// ---------------------------------------------------------------------------------------------
// Events

/** Weighted sampler over a fixed list of product ids (weights = popularity). */
function makeSampler(ids, weightOf) {
  const cumulative = [];
  let total = 0;
  for (const id of ids) cumulative.push((total += weightOf(id)));
  return (rng, exclude) => {
    for (let attempt = 0; attempt < 8; attempt++) {
      const x = rng.float() * total;
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] > x) hi = mid; else lo = mid + 1;
      }
      if (!exclude.has(ids[lo])) return ids[lo];
    }
    return null;
  };
}

/** Invoices in the window, restricted to catalog products, each capped to its most popular lines. */
function windowInvoices(lines, productByCode, windowStart) {
  const byInvoice = new Map();
  for (const l of lines) {
    if (l.time < windowStart) continue;
    const product = productByCode.get(l.code);
    if (!product) continue;
    let inv = byInvoice.get(l.invoice);
    if (!inv) byInvoice.set(l.invoice, (inv = { invoice: l.invoice, customer: l.customer, time: l.time, productIds: new Set() }));
    inv.productIds.add(product.id);
  }
  // Product ids are same-width numbers in popularity-rank order: "most popular lines" = smallest ids.
  return [...byInvoice.values()]
    .map((inv) => ({ ...inv, productIds: [...inv.productIds].sort().slice(0, MAX_LINES_PER_INVOICE) }))
    .sort((a, b) => a.time - b.time || (a.invoice < b.invoice ? -1 : 1));
}

/**
 * One customer session ending in a checkout. Steps are laid out on a relative clock, then shifted so
 * the browsing finishes 30-180 s before the invoice time; all purchases share the invoice time.
 */
function checkoutSession(inv, ctx) {
  const rng = rngFor(`invoice:${inv.invoice}`);
  const sessionId = `s_${shortId(`invoice:${inv.invoice}`)}`;
  const customerId = `cust_${inv.customer}`;
  const orderId = `ord_${inv.invoice}`;
  const bought = new Set(inv.productIds);

  const seen = new Set(bought);
  const extras = [];
  const extraCount = rng.int(1, 4);
  for (let i = 0; i < extraCount; i++) {
    const id = sampleNear(rng, inv.productIds, seen, ctx);
    if (id) { seen.add(id); extras.push(id); }
  }
  const impressions = []; // recommendation slots never show out-of-stock products
  for (let i = 0; i < 3; i++) {
    const id = sampleNear(rng, inv.productIds, new Set([...impressions, ...ctx.unavailable]), ctx);
    if (id) impressions.push(id);
  }

  const viewed = rng.shuffle([...inv.productIds, ...extras]);
  const notBought = [...new Set([...impressions, ...extras])].filter((id) => !bought.has(id));
  const saveTarget = rng.chance(0.05) ? rng.pick(viewed) : null;
  const dismissTarget = notBought.length && rng.chance(0.05) ? rng.pick(notBought) : null;

  const steps = []; // [relativeSeconds, type, productId]
  const firstSeen = new Map();
  let t = 0;
  for (const id of impressions) {
    steps.push([t, 'impression', id]);
    if (!firstSeen.has(id)) firstSeen.set(id, t);
    t++;
  }
  for (const id of viewed) {
    t += rng.int(15, 90);
    if (rng.chance(0.4)) steps.push([t - rng.int(1, 3), 'click', id]);
    steps.push([t, 'view', id]);
    if (!firstSeen.has(id)) firstSeen.set(id, t);
    if (id === saveTarget) steps.push([(t += rng.int(5, 15)), 'save', id]);
    if (bought.has(id)) steps.push([(t += rng.int(20, 60)), 'add_to_cart', id]);
  }
  if (dismissTarget) steps.push([firstSeen.get(dismissTarget) + rng.int(2, 20), 'dismiss', dismissTarget]);
  steps.sort((a, b) => a[0] - b[0]);

  const end = steps[steps.length - 1][0];
  const start = inv.time - rng.int(30, 180) - end;
  const events = steps.map(([rel, type, productId]) => ({ time: start + rel, type, productId, sessionId, customerId, orderId: '' }));
  for (const id of inv.productIds) events.push({ time: inv.time, type: 'purchase', productId: id, sessionId, customerId, orderId });
  return events;
}

/** Popularity-weighted pick from a collection of a random anchor product. */
function sampleNear(rng, anchors, exclude, ctx) {
  const anchor = rng.pick(anchors);
  const collectionId = rng.pick(ctx.productById.get(anchor).collections);
  return ctx.samplers.get(collectionId)(rng, exclude);
}

/** Anonymous browsing (views and clicks only) near the time of a real invoice. */
function anonymousSession(inv, ctx, lastTime) {
  const rng = rngFor(`anon:${inv.invoice}`);
  const sessionId = `s_${shortId(`anon:${inv.invoice}`)}`;
  const first = ctx.globalSampler(rng, new Set());
  const viewed = [first];
  const more = rng.int(1, 5);
  for (let i = 0; i < more; i++) {
    const id = sampleNear(rng, [first], new Set(viewed), ctx);
    if (id) viewed.push(id);
  }
  let t = Math.min(inv.time + rng.int(-3 * 3600, 3 * 3600), lastTime - 30 * 60);
  const events = [];
  for (const id of viewed) {
    if (rng.chance(0.4)) events.push({ time: t - rng.int(1, 3), type: 'click', productId: id, sessionId, customerId: '', orderId: '' });
    events.push({ time: t, type: 'view', productId: id, sessionId, customerId: '', orderId: '' });
    t += rng.int(10, 120);
  }
  return events;
}

const dayOf = (seconds) => new Date(seconds * 1000).toISOString().slice(0, 10);

const EVENTS_HEADER = 'offsetSeconds,type,productId,sessionId,customerId,orderId';

/** All sessions as sorted CSV rows, trimmed by whole days (oldest first) to fit the row/byte budget. */
function buildEvents(invoices, ctx, lastTime) {
  const events = [];
  for (const inv of invoices) {
    const day = dayOf(inv.time);
    const sessions = [checkoutSession(inv, ctx)];
    if (rngFor(`anon?:${inv.invoice}`).chance(1 / 3)) sessions.push(anonymousSession(inv, ctx, lastTime));
    for (const session of sessions) session.forEach((e, seq) => events.push({ ...e, seq, day }));
  }
  events.sort((a, b) => a.time - b.time || (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0) || a.seq - b.seq);
  const rows = events.map((e) => ({
    day: e.day,
    text: `${LAST_EVENT_OFFSET + (lastTime - e.time)},${e.type},${e.productId},${e.sessionId},${e.customerId},${e.orderId}\n`,
  }));

  const days = [...new Set(rows.map((r) => r.day))].sort();
  const perDay = new Map(days.map((d) => [d, { rows: 0, bytes: 0 }]));
  for (const r of rows) {
    const d = perDay.get(r.day);
    d.rows++;
    d.bytes += r.text.length; // ASCII only
  }
  let total = { rows: rows.length, bytes: EVENTS_HEADER.length + 1 + rows.reduce((n, r) => n + r.text.length, 0) };
  let fromDay = 0;
  while ((total.rows > MAX_EVENT_ROWS || total.bytes > MAX_EVENT_BYTES) && fromDay < days.length - 1) {
    const d = perDay.get(days[fromDay++]);
    total = { rows: total.rows - d.rows, bytes: total.bytes - d.bytes };
  }
  const firstDay = days[fromDay];
  const csv = EVENTS_HEADER + '\n' + rows.filter((r) => r.day >= firstDay).map((r) => r.text).join('');
  return { csv, rows: total.rows, firstDay, droppedDays: fromDay, lastTime };
}

// ---------------------------------------------------------------------------------------------

function writeJson(file, value) {
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

function main() {
  const { raw, lines } = readCleanLines(INPUT);
  const summaries = summarizeCodes(lines);
  const top = topCodes(summaries);
  const { collections, membership } = buildCollections(top);
  const products = buildProducts(top, membership);
  const sizes = checkCatalog(products, collections);

  const productById = new Map(products.map((p) => [p.id, p]));
  const productByCode = new Map(products.map((p) => [p.sku, p]));
  const popularity = new Map(top.map((s) => [productByCode.get(s.code).id, s.popularity]));
  const weightOf = (id) => popularity.get(id);
  const samplers = new Map(collections.map((c) => [c.id, makeSampler(products.filter((p) => p.collections.includes(c.id)).map((p) => p.id), weightOf)]));
  const unavailable = products.filter((p) => !p.available).map((p) => p.id);
  const ctx = { productById, samplers, unavailable, globalSampler: makeSampler(products.map((p) => p.id), weightOf) };

  const invoices = windowInvoices(lines, productByCode, toSeconds(`${WINDOW_START} 00:00:00`));
  const lastTime = lines.reduce((max, l) => Math.max(max, l.time), 0); // 2011-12-09 12:50
  const events = buildEvents(invoices, ctx, lastTime);

  fs.mkdirSync(OUT_DIR, { recursive: true });
  writeJson(path.join(OUT_DIR, 'products.json'), products);
  writeJson(path.join(OUT_DIR, 'collections.json'), collections.map(({ id, title, handle, description }) => ({ id, title, handle, description })));
  fs.writeFileSync(path.join(OUT_DIR, 'events.csv'), events.csv);

  const log = console.log;
  log(`read ${raw} rows, kept ${lines.length} clean lines, ${summaries.length} StockCodes`);
  log(`products: ${products.length}; collections: ${collections.map((c) => `${c.title}=${sizes.get(c.id)}`).join(', ')}`);
  log(`events: ${events.rows} rows, ${dayOf(events.lastTime)} back to ${events.firstDay} (dropped the ${events.droppedDays} oldest trading days of the window to fit the budget)`);
}

main();
