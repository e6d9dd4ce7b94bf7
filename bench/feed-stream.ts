// How much memory reading a product feed takes as the feed grows: a Google Merchant Center XML feed
// of BENCH_FEED_MB (default 1024) megabytes, generated as it is read (never held whole, never on
// disk), streamed through the importer's reader (feedRecords: saxes, variants merged in a bounded
// window) to a consumer that only counts records. Sampled every 50 ms as it reads: the process's RSS
// and JS heap. The baseline, in the same run: the same bytes generated and thrown away, without the reader.
// Bar: the reader's peak RSS over the baseline's stays under 100 MB whatever the feed's size.
import { Readable } from 'node:stream';
import { feedRecords } from '../src/integrations/feeds/feed-records.js';

const MB = 1024 * 1024;
const FEED_MB = Number(process.env.BENCH_FEED_MB ?? 1024);

/** One item of the feed; every 3 items share an item_group_id (variants), every 997th has a bad price. */
function item(i: number): string {
  const price = i % 997 === 0 ? '12,50 EUR' : `${(5 + (i % 200)).toFixed(2)} USD`;
  return (
    `<item><g:id>SKU-${i}</g:id><title>Product ${i} with a title of some length</title>` +
    `<description>${'A description of the product, as feeds carry them. '.repeat(4)}</description>` +
    `<link>https://shop.example/p/${i}</link><g:image_link>https://img.example/${i}.jpg</g:image_link>` +
    `<g:availability>in_stock</g:availability><g:price>${price}</g:price><g:brand>Brand ${i % 50}</g:brand>` +
    `<g:item_group_id>G-${Math.floor(i / 3)}</g:item_group_id><g:product_type>Home &gt; Group ${i % 40}</g:product_type></item>\n`
  );
}

/** The feed's bytes, made a chunk at a time as they are read. */
function feed(bytes: number): Readable {
  let made = 0;
  let next = 0;
  let head = true;
  return new Readable({
    read() {
      if (head) {
        head = false;
        this.push('<?xml version="1.0"?>\n<rss version="2.0" xmlns:g="http://base.google.com/ns/1.0"><channel><title>Bench</title>\n');
        return;
      }
      if (made >= bytes) {
        this.push('</channel></rss>\n');
        this.push(null);
        return;
      }
      let chunk = '';
      while (chunk.length < 256 * 1024) chunk += item(next++);
      made += chunk.length;
      this.push(chunk);
    },
  });
}

interface Run {
  seconds: number;
  peakRssMb: number;
  peakHeapMb: number;
  records: number;
  errors: number;
}

/**
 * Runs `consume` over a fresh feed, sampling RSS and heap each time it calls `sample` (a timer would
 * not do: reading a stream that is always ready runs on microtasks, and timers wait until it ends).
 */
async function measure(consume: (input: Readable, sample: () => void) => Promise<{ records: number; errors: number }>): Promise<Run> {
  globalThis.gc?.();
  let peakRss = 0;
  let peakHeap = 0;
  let last = 0;
  const sample = () => {
    const now = performance.now();
    if (now - last < 50) return;
    last = now;
    const usage = process.memoryUsage();
    peakRss = Math.max(peakRss, usage.rss);
    peakHeap = Math.max(peakHeap, usage.heapUsed);
  };
  const started = performance.now();
  const counted = await consume(feed(FEED_MB * MB), sample);
  const seconds = (performance.now() - started) / 1000;
  last = 0;
  sample();
  return { seconds, peakRssMb: peakRss / MB, peakHeapMb: peakHeap / MB, ...counted };
}

const baseline = await measure(async (input, sample) => {
  for await (const _ of input) sample();
  return { records: 0, errors: 0 };
});
const reader = await measure(async (input, sample) => {
  let records = 0;
  let errors = 0;
  for await (const record of feedRecords(input, 'feed-xml')) {
    if (record.error === undefined) records++;
    else errors++;
    if ((records & 255) === 0) sample();
  }
  return { records, errors };
});

const row = (name: string, run: Run) =>
  `${name.padEnd(28)} ${run.seconds.toFixed(1).padStart(7)} ${(FEED_MB / run.seconds).toFixed(0).padStart(8)} ${run.peakRssMb.toFixed(0).padStart(9)} ${run.peakHeapMb.toFixed(0).padStart(10)} ${String(run.records).padStart(9)} ${String(run.errors).padStart(7)}`;
console.log(`feed of ${FEED_MB} MB (Google Merchant Center XML, 3 variants an item group)`);
console.log(`${'run'.padEnd(28)} ${'s'.padStart(7)} ${'MB/s'.padStart(8)} ${'peak RSS'.padStart(9)} ${'peak heap'.padStart(10)} ${'products'.padStart(9)} ${'refused'.padStart(7)}`);
console.log(row('generated only (baseline)', baseline));
console.log(row('feedRecords', reader));
const growth = reader.peakRssMb - baseline.peakRssMb;
console.log(`peak RSS over the baseline: ${growth.toFixed(0)} MB (bar: < 100 MB) ${growth < 100 ? 'ok' : 'OVER'}`);
