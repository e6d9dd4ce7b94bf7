// The experiments section: each experiment with its variants' numbers and intervals, the comparison
// with A and its verdict, the buttons its state allows (start, stop, conclude), and the form that
// creates one. Every change goes through the CSRF-protected data routes, then the list is redrawn.
import { createExperiment, experimentAction, experiments, ProblemError } from './api';
import { byId, el, fill } from './dom';
import { amount, count, points, withInterval } from './format';
import { VARIANT_STRATEGIES, type Experiment } from './types';

const ACTIONS: Record<Experiment['status'], ('start' | 'stop' | 'conclude')[]> = {
  draft: ['start', 'conclude'],
  running: ['stop', 'conclude'],
  stopped: ['start', 'conclude'],
  concluded: [],
};
const LABELS = { start: 'Start', stop: 'Stop', conclude: 'Conclude' } as const;
const MAX_VARIANTS = 15;

function message(error: unknown): string {
  if (error instanceof ProblemError) {
    const fields = error.problem.errors?.map((e) => `${e.pointer} ${e.detail}`).join('; ');
    return fields ? `${error.problem.detail} (${fields})` : error.problem.detail;
  }
  return error instanceof Error ? error.message : String(error);
}

function card(experiment: Experiment, refresh: () => Promise<void>, status: HTMLElement): HTMLElement {
  const shares = new Map(experiment.variants.map((v) => [v.variant, v]));
  const rows = experiment.results.variants.map((v) =>
    el(
      'tr',
      {},
      el('th', { scope: 'row' }, v.variant),
      el('td', {}, shares.get(v.variant)?.strategy ?? ''),
      el('td', { class: 'num' }, `${Math.round(shares.get(v.variant)?.share ?? 0)} %`),
      el('td', { class: 'num' }, count(v.impressions)),
      el('td', { class: 'num' }, count(v.clicks)),
      el('td', { class: 'num' }, withInterval(v.ctr)),
      el('td', { class: 'num' }, count(v.orders)),
      el('td', { class: 'num' }, withInterval(v.conversionRate)),
      el('td', { class: 'num' }, amount(v.revenue)),
    ),
  );
  const heads = ['Variant', 'Strategy', 'Share', 'Impressions', 'Clicks', 'CTR (95 % interval)', 'Orders', 'Conversion', 'Revenue'];
  const comparisons = experiment.results.comparisons.map((c) =>
    el(
      'li',
      { 'data-verdict': c.verdict },
      el('strong', { class: 'verdict' }, c.verdict),
      ` — CTR ${c.variant} − ${c.against}: ${points(c.difference, c.low, c.high)}`,
      c.moreImpressionsNeeded !== null && c.moreImpressionsNeeded > 0 ? `; about ${count(c.moreImpressionsNeeded)} more impressions per variant to tell` : '',
    ),
  );
  const buttons = ACTIONS[experiment.status].map((action) => {
    const button = el('button', { type: 'button', class: action === 'conclude' ? 'secondary' : undefined, 'data-action': action }, LABELS[action]);
    button.addEventListener('click', async () => {
      if (action === 'conclude' && !confirm(`Conclude ${experiment.id}? It keeps its results and can never run again.`)) return;
      button.disabled = true;
      try {
        await experimentAction(experiment.id, action);
        fill(status, '');
        await refresh();
      } catch (error) {
        fill(status, message(error));
        button.disabled = false;
      }
    });
    return button;
  });
  return el(
    'article',
    { class: 'experiment', 'data-experiment': experiment.id, 'data-status': experiment.status },
    el('header', {}, el('h3', {}, experiment.name), el('span', { class: `status ${experiment.status}` }, experiment.status)),
    el('p', { class: 'meta' }, `${experiment.id} on widget `, el('code', {}, experiment.widgetId), experiment.startedAt ? ` · started ${experiment.startedAt.slice(0, 10)}` : ''),
    el('div', { class: 'scroll' }, el('table', {}, el('thead', {}, el('tr', {}, ...heads.map((h, i) => el('th', { scope: 'col', class: i > 1 ? 'num' : undefined }, h)))), el('tbody', {}, ...rows))),
    comparisons.length > 0 ? el('ul', { class: 'comparisons' }, ...comparisons) : null,
    buttons.length > 0 ? el('div', { class: 'actions' }, ...buttons) : null,
  );
}

export async function loadExperiments(): Promise<void> {
  const list = byId('experiments');
  const status = byId('experiment-status');
  const refresh = () => loadExperiments();
  const all = await experiments();
  if (all.length === 0) fill(list, el('p', { class: 'empty' }, 'No experiments yet: create one below.'));
  else fill(list, ...all.map((e) => card(e, refresh, status)));
}

function variantRow(index: number): HTMLElement {
  const letter = String.fromCharCode(65 + index);
  const select = el('select', { name: 'strategy', 'aria-label': `Variant ${letter} strategy` }, ...VARIANT_STRATEGIES.map((s) => el('option', { value: s }, s)));
  if (index === 0) select.value = 'trending';
  return el(
    'div',
    { class: 'variant' },
    el('span', { class: 'letter' }, letter),
    select,
    el('input', { name: 'share', type: 'number', min: '0', max: '100', step: '1', value: '50', 'aria-label': `Variant ${letter} share`, required: '' }),
    el('span', {}, '%'),
  );
}

/** The create form: name, placement and 2-15 variants (a strategy and a share each). */
export function setUpExperimentForm(): void {
  const form = byId<HTMLFormElement>('new-experiment');
  const variants = byId('variants');
  const status = byId('experiment-status');
  fill(variants, variantRow(0), variantRow(1));
  byId('add-variant').addEventListener('click', () => {
    if (variants.children.length < MAX_VARIANTS) variants.append(variantRow(variants.children.length));
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const strategies = data.getAll('strategy').map(String);
    const shares = data.getAll('share').map(Number);
    const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    submit.disabled = true;
    try {
      const created = await createExperiment({
        name: String(data.get('name') ?? '').trim() || String(data.get('widgetId') ?? ''),
        widgetId: String(data.get('widgetId') ?? '').trim(),
        variants: strategies.map((strategy, i) => ({ strategy, share: shares[i] ?? 0 })),
      });
      form.reset();
      fill(variants, variantRow(0), variantRow(1));
      fill(status, `Created ${created.id} (a draft: start it to assign shoppers).`);
      await loadExperiments();
    } catch (error) {
      fill(status, message(error));
    } finally {
      submit.disabled = false;
    }
  });
}
