import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ids, postEvents, putProducts, recommendations, startTestService, wireProduct, type TestService } from '../support/service.js';

describe('smoke', () => {
  let t: TestService;
  beforeAll(async () => {
    t = await startTestService();
  });
  afterAll(() => t.cleanup());

  test('When a product gets purchases, then it trends first', async () => {
    await putProducts(t, [wireProduct('1'), wireProduct('2'), wireProduct('3')]);
    await postEvents(t, [{ type: 'purchase', productId: '2', sessionId: 's1' }]);
    const body = await recommendations(t, 'strategy=trending');
    expect(ids(body)[0]).toBe('2');
    expect(body.meta).toMatchObject({ strategy: 'trending', modelLevel: 1, count: 3 });
  });
});
