// Prometheus text as the tests read it: every sample by its series (name and labels as written),
// with the type of its family (a histogram's _bucket, _sum and _count samples are its family's).
export interface Sample {
  family: string;
  type: string;
  value: number;
}

export type Scrape = Map<string, Sample>;

export function parseMetrics(text: string): Scrape {
  const types = new Map<string, string>();
  const samples: Scrape = new Map();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type !== null) types.set(type[1]!, type[2]!);
    if (line === '' || line.startsWith('#')) continue;
    const cut = line.lastIndexOf(' ');
    const series = line.slice(0, cut);
    const name = series.replace(/\{.*$/, '');
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count)$/, '');
    samples.set(series, { family, type: types.get(family) ?? 'untyped', value: Number(line.slice(cut + 1)) });
  }
  return samples;
}

/** Whether a sample only ever grows: a counter's, or a histogram's. */
export function isCount(sample: Sample): boolean {
  return sample.type === 'counter' || sample.type === 'histogram';
}

/** The families a scrape holds (each once). */
export function families(scrape: Scrape): Set<string> {
  return new Set([...scrape.values()].map((sample) => sample.family));
}
