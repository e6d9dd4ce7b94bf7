// A platform's webhook delivery as the server answered it.
import { expect } from 'vitest';

/** The outcome of a delivery answered 200 ('applied', 'unchanged', 'duplicate', 'ignored'). */
export async function deliveryOutcome(res: Response): Promise<string> {
  const text = await res.text();
  expect(res.status, text).toBe(200);
  return (JSON.parse(text) as { outcome: string }).outcome;
}
