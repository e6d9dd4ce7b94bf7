// The `recommendations` message: the GET /api/recommendations body (same fragments, same fields)
// inside {op, ref?, sub, products, meta}, and the signature that says whether a list changed.
import type { Recommendation } from '../engine/recommend.js';
import { encodeFrame, type Frame } from './codec.js';
import type { Ref } from './protocol.js';

/** The frame of one answer, from its GET /api/recommendations body (`body`). */
export function recommendationFrame(sub: string, body: string, binary: boolean, ref?: Ref): Frame {
  if (binary) return encodeFrame({ op: 'recommendations', ...(ref === undefined ? {} : { ref }), sub, ...(JSON.parse(body) as object) }, true);
  // `{"products":…}` → `{"op":"recommendations","sub":…,"products":…}` without stringifying again.
  const head = ref === undefined ? '{"op":"recommendations",' : `{"op":"recommendations","ref":${JSON.stringify(ref)},`;
  return `${head}"sub":${JSON.stringify(sub)},${body.slice(1)}`;
}

/**
 * What a shopper sees change: the ids in order, who produced each, and the meta. Scores are left out,
 * so time decay alone (every score shrinking together) is not a change unless the order moves.
 */
export function listSignature(result: Recommendation): string {
  let signature = `${result.strategy}|${result.modelLevel}|`;
  // updatedAt: a renamed or repriced product is a change worth pushing too.
  for (const item of result.items) signature += `${item.product.id}@${item.product.updatedAt}>${item.strategy},`;
  return signature;
}
