// Bracketed ratios: each measured run sits between two baseline runs of the same tool and its ratio
// is to their mean, so a shared machine's drift (2-4× within minutes here) mostly cancels out.
// Back-to-back rows of one tool share the baseline run between them.
import type { BaselineTool, LoadResult } from './load-result.js';
import type { Row } from './report.js';

/** A bracket whose two baselines differ by more than this (percent) is flagged as noisy. */
export const NOISY_PERCENT = 20;

export class Bracketed {
  readonly rows: Row[] = [];
  readonly baselines: Record<BaselineTool, LoadResult[]> = { autocannon: [], wrk: [] };
  /** The run just done, when it was a baseline: the next row of that tool starts from it. */
  #previousBaseline: LoadResult | undefined;

  constructor(
    private readonly runBaseline: (tool: BaselineTool) => Promise<LoadResult>,
    private readonly progress: (line: string) => void,
  ) {}

  async #baseline(tool: BaselineTool): Promise<LoadResult> {
    this.progress(`  baseline [${tool}]…`);
    const result = await this.runBaseline(tool);
    this.baselines[tool].push(result);
    this.progress(`    ${Math.round(result.requestsPerSec)} req/s`);
    this.#previousBaseline = result;
    return result;
  }

  async measure(label: string, tool: BaselineTool, run: () => Promise<LoadResult>, note?: string): Promise<Row> {
    const previous = this.#previousBaseline;
    const before = previous?.tool === tool ? previous : await this.#baseline(tool);
    this.progress(`  ${label} [${tool}]…`);
    this.#previousBaseline = undefined;
    const result = await run();
    this.progress(`    ${Math.round(result.requestsPerSec)} req/s, p50 ${result.latencyP50Ms.toFixed(2)} ms, p99 ${result.latencyP99Ms.toFixed(2)} ms`);
    const after = await this.#baseline(tool);
    const base = (before.requestsPerSec + after.requestsPerSec) / 2;
    const moved = ((after.requestsPerSec - before.requestsPerSec) / before.requestsPerSec) * 100;
    const flags = Math.abs(moved) > NOISY_PERCENT ? [`noisy: baseline moved ${moved > 0 ? '+' : ''}${moved.toFixed(0)}%`] : [];
    const row: Row = {
      label,
      ...result,
      ratio: result.requestsPerSec / base,
      baselineRequestsPerSec: base,
      baselineMovedPercent: moved,
      note: [note, ...flags].filter(Boolean).join('; ') || undefined,
    };
    this.rows.push(row);
    return row;
  }

  /** One summary row per tool: the mean of its baseline runs, the spread in the notes. */
  baselineRows(): Row[] {
    return (['autocannon', 'wrk'] as const).flatMap((tool) => {
      const runs = this.baselines[tool];
      if (runs.length === 0) return [];
      const mean = (pick: (r: LoadResult) => number) => runs.reduce((sum, r) => sum + pick(r), 0) / runs.length;
      const rates = runs.map((r) => r.requestsPerSec);
      const spread = `${runs.length} runs, ${fmt(Math.min(...rates))}-${fmt(Math.max(...rates))} req/s`;
      return [
        {
          label: 'GET / uWS hello-world (baseline)',
          tool,
          baseline: true,
          requestsPerSec: mean((r) => r.requestsPerSec),
          latencyP50Ms: mean((r) => r.latencyP50Ms),
          latencyP99Ms: mean((r) => r.latencyP99Ms),
          requests: runs.reduce((sum, r) => sum + r.requests, 0),
          durationSec: runs.reduce((sum, r) => sum + r.durationSec, 0),
          non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
          errors: runs.reduce((sum, r) => sum + r.errors, 0),
          ratio: 1,
          note: spread,
        },
      ];
    });
  }
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
