// The dashboard's "Why these recommendations" panel: the settings personalized runs with, and how
// the shop's latest refit chose them on its own held-out purchases (GET /api/shop/model's answer).
import type { ModelSettings, ShopModel } from '../../api/responses.js';
import { html, type Html } from '../../demo/pages/html.js';

const score = (x: number | null) => (x === null ? '–' : x.toFixed(4));

const WHY: Record<NonNullable<ShopModel['tuning']>['decision'], string> = {
  tuned: 'These settings predicted your shoppers\u2019 latest purchases better than the defaults, by more than the validation noise.',
  'default-best': 'No other setting predicted your shoppers\u2019 latest purchases better than the defaults.',
  'within-noise': 'Another setting scored a little higher, by less than the validation noise: the defaults stay.',
  'too-little-data': 'Too few shoppers with several purchases to validate on yet: the defaults stay.',
};

function settingRows(s: ModelSettings, defaults: ModelSettings): Html {
  const row = (name: string, key: keyof ModelSettings, help: string) =>
    html`<tr data-setting="${key}"><th scope="row">${name}</th><td>${String(s[key])}</td><td>${String(defaults[key])}</td><td>${help}</td></tr>`;
  return html`${row('Momentum exponent', 'momentumExponent', 'How much what sells now outranks what sold before (0: off).')}
    ${row('Real-time weight', 'realTimeWeight', 'Weight of live shopper and basket similarity next to the EASE model.')}
    ${row('History exponent', 'historyExponent', 'How much a shopper\u2019s recent interests outweigh older ones (0: all alike).')}
    ${row('EASE λ', 'lambda', 'Regularization of the EASE model (higher: closer to popularity).')}`;
}

export function modelPanel(model: ShopModel): Html {
  const { tuning } = model;
  const summary =
    tuning === null
      ? html`<p data-decision="none">${model.fitProducts === 0 ? 'No EASE model is fitted yet: personalized answers come from the real-time model with the default settings.' : 'Tuning is off: the default settings are in use.'}</p>`
      : html`<p data-decision="${tuning.decision}">${WHY[tuning.decision]}</p>
          <dl class="glance">
            <dt>Shoppers validated</dt> <dd data-metric="validation-shoppers">${String(tuning.shoppers)}</dd>
            <dt>nDCG@10, these settings</dt> <dd data-metric="validation-chosen">${score(tuning.scores.chosen)}</dd>
            <dt>nDCG@10, the defaults</dt> <dd data-metric="validation-default">${score(tuning.scores.default)}</dd>
            <dt>nDCG@10, best seller order</dt> <dd data-metric="validation-popularity">${score(tuning.scores.popularity)}</dd>
            <dt>Noise (standard error)</dt> <dd>${tuning.standardError.toFixed(4)}</dd>
          </dl>`;
  return html`<section id="model">
      <h2>Why these recommendations</h2>
      <div class="panel">
        <p>Personalized recommendations blend an EASE model, refitted in the background, with live shopper similarity. At each refit the shop checks its settings on its own data: its newest purchases are hidden and predicted from the rest of those shoppers\u2019 histories.</p>
        ${summary}
        <div class="scroll"><table>
          <thead><tr><th scope="col">Setting</th><th scope="col">In use</th><th scope="col">Default</th><th scope="col">What it does</th></tr></thead>
          <tbody>${settingRows(model.settings, model.defaults)}</tbody>
        </table></div>
      </div>
    </section>`;
}
