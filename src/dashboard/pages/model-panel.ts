// The dashboard's "Why these recommendations" panel: the settings personalized runs with, and how
// the shop's latest refit chose them on its own held-out purchases (GET /api/shop/model's answer).
import type { ModelSettings, ShopModel } from '../../api/responses.js';
import { html, type Html } from '../../html.js';

const score = (x: number | null) => (x === null ? '–' : x.toFixed(4));

/** What the validation found, as measured: the decision, and how the settings in use compare with listing the best sellers. */
function finding(tuning: NonNullable<ShopModel['tuning']>): Html {
  const { chosen, default: byDefault, best, popularity } = tuning.scores;
  if (tuning.decision === 'too-little-data' || chosen === null || byDefault === null) {
    return html`<p data-decision="${tuning.decision}">Too few shoppers with several purchases to validate on yet (${String(tuning.shoppers)}): nothing was measured, and the default settings stay.</p>`;
  }
  const noise = `the validation noise (standard error ${tuning.standardError.toFixed(4)})`;
  const decided = {
    tuned: `The settings in use scored ${score(chosen)} against the defaults’ ${score(byDefault)}: better by more than ${noise}, so they replaced the defaults.`,
    'default-best': `No other setting tried scored above the defaults (${score(byDefault)}), so the defaults stay.`,
    'within-noise': `The best setting tried scored ${score(best)} against the defaults’ ${score(byDefault)}: ahead by less than ${noise}, so the defaults stay.`,
  }[tuning.decision];
  const versusBestSellers =
    popularity === null
      ? ''
      : popularity >= chosen
        ? ` Simply listing your best sellers scored ${score(popularity)}, as well or better: on these purchases personalized did not beat best sellers.`
        : ` Simply listing your best sellers scored ${score(popularity)}, below the settings in use.`;
  return html`<p data-decision="${tuning.decision}">${decided}${versusBestSellers}</p>`;
}

/** What personalized blends, as the settings in use say (no live similarity when its weight is 0). */
function blendSentence(model: ShopModel): string {
  if (model.fitProducts === 0) return 'No EASE model is fitted yet: personalized answers come from live shopper and basket similarity with the default settings.';
  return model.settings.realTimeWeight === 0
    ? 'Personalized recommendations come from an EASE model alone, refitted in the background from your shoppers’ histories.'
    : 'Personalized recommendations blend an EASE model, refitted in the background, with live shopper and basket similarity.';
}

function settingRows(s: ModelSettings, defaults: ModelSettings): Html {
  const row = (name: string, key: keyof ModelSettings, help: string) =>
    html`<tr data-setting="${key}"><th scope="row">${name}</th><td>${String(s[key])}</td><td>${String(defaults[key])}</td><td>${help}</td></tr>`;
  return html`${row('Momentum exponent', 'momentumExponent', 'How much what sells now outranks what sold before (0: off).')}
    ${row('Real-time weight', 'realTimeWeight', 'How much the real-time model weighs next to EASE (0: EASE alone).')}
    ${row('History exponent', 'historyExponent', 'How much a shopper\u2019s recent interests outweigh older ones (0: all alike).')}
    ${row('EASE λ', 'lambda', 'Regularization of the EASE model (higher: closer to popularity).')}`;
}

/** How carts are scored, and how the latest refit chose it. */
function cartParagraph(cart: ShopModel['cart']): Html {
  const { settings: s, tuning } = cart;
  const weights = `EASE ${s.easeWeight}, bought-together pairs ${s.pairWeight}, content ${s.contentWeight}`;
  if (tuning === null || tuning.decision === 'too-little-data' || tuning.scores.chosen === null) {
    return html`<p data-cart-decision="${tuning?.decision ?? 'none'}">Carts (several products at once) are scored with the default weights (${weights})${tuning === null ? '' : `: too few whole orders to validate on (${String(tuning.carts)})`}.</p>`;
  }
  return html`<p data-cart-decision="${tuning.decision}">Carts are scored with ${weights}: on ${String(tuning.carts)} of your orders held out (a cart of up to five of their products, the rest to find), these weights scored ${score(tuning.scores.chosen)}, EASE alone ${score(tuning.scores.easeAlone)}, bought-together pairs alone ${score(tuning.scores.pairsAlone)}.</p>`;
}

export function modelPanel(model: ShopModel): Html {
  const { tuning } = model;
  const summary =
    tuning === null
      ? html`<p data-decision="none">${model.fitProducts === 0 ? 'The settings have not been checked on your data yet: the defaults are in use.' : 'Tuning is off: the default settings are in use.'}</p>`
      : html`<p>At the latest refit, the newest purchases of ${String(tuning.shoppers)} shoppers were hidden and predicted from the rest of their histories, scored by nDCG@10 (1: every hidden purchase at the top of the ten recommended, 0: none among them).</p>
          ${finding(tuning)}
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
        <p data-blend>${blendSentence(model)}</p>
        ${summary}
        ${cartParagraph(model.cart)}
        <div class="scroll"><table>
          <thead><tr><th scope="col">Setting</th><th scope="col">In use</th><th scope="col">Default</th><th scope="col">What it does</th></tr></thead>
          <tbody>${settingRows(model.settings, model.defaults)}</tbody>
        </table></div>
      </div>
    </section>`;
}
