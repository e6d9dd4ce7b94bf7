import { describe, expect, test } from 'vitest';
import { contentFeatures } from '../../../src/engine/content-index.js';
import { ask, engineWith, idsOf, product, strategiesOf, T0 } from '../fixtures.js';

const catalog = [
  product('mug-red', { title: 'Red Enamel Mug', vendor: 'Camp Co', productType: 'Mug', tags: ['enamel', 'camping'], collections: ['kitchen'], price: '12.00' }),
  product('mug-blue', { title: 'Blue Enamel Mug', vendor: 'Camp Co', productType: 'Mug', tags: ['enamel', 'camping'], collections: ['kitchen'], price: '12.50' }),
  product('plate', { title: 'Enamel Plate', vendor: 'Camp Co', productType: 'Plate', tags: ['enamel'], collections: ['kitchen'], price: '9.00' }),
  product('sofa', { title: 'Velvet Sofa', vendor: 'Lounge', productType: 'Sofa', tags: ['velvet'], collections: ['living'], price: '899.00' }),
  product('lamp', { title: 'Brass Lamp', vendor: 'Lounge', productType: 'Lamp', tags: ['brass'], collections: ['living'], price: '120.00' }),
];

describe('similar', () => {
  test('When a brand-new product has no events, then it gets content-similar products, most similar first', () => {
    const engine = engineWith(catalog);
    const result = ask(engine, { strategy: 'similar', productId: 'mug-red', limit: 3 }, T0);
    expect(idsOf(result)).toEqual(['mug-blue', 'plate', 'lamp']);
    // Nothing else shares a feature: the third comes from the chain (no events: catalog order).
    expect(strategiesOf(result)).toEqual(['similar', 'similar', 'trending']);
    expect(result.modelLevel).toBe(0);
  });

  test('When products are co-viewed in sessions, then the behavioural ones come first', () => {
    const engine = engineWith(catalog);
    for (let i = 0; i < 3; i++) {
      engine.apply({ type: 'view', productId: 'mug-red', sessionId: `s${i}`, timestamp: T0 });
      engine.apply({ type: 'click', productId: 'lamp', sessionId: `s${i}`, timestamp: T0 });
    }
    const result = ask(engine, { strategy: 'similar', productId: 'mug-red', limit: 3 }, T0);
    expect(idsOf(result)).toEqual(['lamp', 'mug-blue', 'plate']);
    expect(result.modelLevel).toBe(2);
  });

  test('When a product changes, then its similar list follows the catalog at once', () => {
    const engine = engineWith(catalog);
    engine.upsertProduct(product('plate', { title: 'Velvet Cushion', vendor: 'Lounge', productType: 'Cushion', tags: ['velvet'], collections: ['living'], price: '40.00' }));
    expect(idsOf(ask(engine, { strategy: 'similar', productId: 'sofa', limit: 1 }, T0))).toEqual(['plate']);
    engine.removeProduct('plate');
    expect(idsOf(ask(engine, { strategy: 'similar', productId: 'sofa', limit: 1 }, T0))).toEqual(['lamp']);
  });

  test('When features are extracted, then vendor, type, collections, tags, title words and price band all count', () => {
    expect(contentFeatures(catalog[0]!).sort()).toEqual(['c:kitchen', 'g:camping', 'g:enamel', 'p:6', 't:mug', 'v:camp co', 'w:enamel', 'w:mug', 'w:red']);
  });
});
