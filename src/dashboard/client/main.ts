// The dashboard page's script: loads the signed-in shop's numbers from /dashboard/data/ for the
// chosen range (7, 30 or 90 days ending today, UTC) and draws the overview, the tables, the top
// products, the experiments and the rules. It never sees the secret key: the session cookie is HttpOnly.
import { stats } from './api';
import { drawRates, drawRevenue } from './charts';
import { byId, el, fill } from './dom';
import { dayString, useCurrency } from './format';
import { loadExperiments, setUpExperimentForm } from './experiments';
import { fillGroups, fillTopProducts, fillTotals } from './tables';
import { loadRules, setUpRuleEditor } from './rules';

let loading = 0;

async function loadRange(days: number): Promise<void> {
  const serial = ++loading;
  const today = Math.floor(Date.now() / 86_400_000);
  const from = dayString(today - days + 1);
  const to = dayString(today);
  document.body.setAttribute('aria-busy', 'true');
  try {
    const [byDay, byStrategy, byWidget, byProduct] = await Promise.all([stats(from, to, 'day'), stats(from, to, 'strategy'), stats(from, to, 'widget'), stats(from, to, 'product')]);
    if (serial !== loading) return; // a later range was picked meanwhile
    fill(byId('range-label'), `${from} to ${to} (UTC)`);
    fillTotals(byId('totals'), byDay.totals);
    drawRevenue(byId('chart-revenue'), byDay);
    drawRates(byId('chart-rates'), byDay);
    fillGroups(byId('by-strategy'), 'Per strategy', 'Strategy', byStrategy);
    fillGroups(byId('by-widget'), 'Per widget (placement)', 'Widget', byWidget);
    fillTopProducts(byId('top-products'), byProduct);
    document.body.dataset.loaded = String(days);
  } catch (error) {
    fill(byId('totals'), el('p', { class: 'problem', role: 'alert' }, `Could not load the numbers: ${error instanceof Error ? error.message : String(error)}`));
  } finally {
    if (serial === loading) document.body.removeAttribute('aria-busy');
  }
}

function setUpRangePicker(): void {
  const buttons = document.querySelectorAll<HTMLButtonElement>('#range button[data-days]');
  for (const button of buttons) {
    button.addEventListener('click', () => {
      for (const other of buttons) other.setAttribute('aria-pressed', String(other === button));
      void loadRange(Number(button.dataset.days));
    });
  }
}

function start(): void {
  useCurrency(document.querySelector<HTMLMetaElement>('meta[name="shop-currency"]')?.content || undefined);
  setUpRangePicker();
  setUpExperimentForm();
  const pressed = document.querySelector<HTMLButtonElement>('#range button[aria-pressed="true"]');
  void loadRange(Number(pressed?.dataset.days ?? 30));
  void loadExperiments().catch((error: unknown) => fill(byId('experiments'), el('p', { class: 'problem', role: 'alert' }, String(error))));
  setUpRuleEditor();
  void loadRules().catch((error: unknown) => fill(byId('rules'), el('p', { class: 'problem', role: 'alert' }, String(error))));
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
