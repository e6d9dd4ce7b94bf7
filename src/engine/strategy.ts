// The six strategy names of the spec and the model level each one answers with.

export const STRATEGIES = [
  'bought-together',
  'similar',
  'trending',
  'personalized',
  'collection-popular',
  'recently-viewed',
] as const;

export type Strategy = (typeof STRATEGIES)[number];

/**
 * modelLevel of an answer: 0 = no behavioural signal (catalog order), 1 = aggregate popularity,
 * 2 = item-to-item behavioural model, 3 = this shopper's own history.
 */
export type ModelLevel = 0 | 1 | 2 | 3;

export const STRATEGY_LEVEL: Readonly<Record<Strategy, ModelLevel>> = {
  'bought-together': 2,
  similar: 2,
  trending: 1,
  personalized: 3,
  'collection-popular': 1,
  'recently-viewed': 3,
};

export function isStrategy(value: string): value is Strategy {
  return (STRATEGIES as readonly string[]).includes(value);
}
