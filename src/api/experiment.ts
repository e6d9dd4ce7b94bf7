// The experiment wire type (POST /api/experiments), its typia validator, and the stored record.
import typia, { type tags } from 'typia';
import { MAX_VARIANTS } from '../engine/attribution/rec-id.js';
import { invalidFields, type FieldError } from '../errors.js';
import type { ExperimentStatus, VariantStrategy } from './experiment-view.js';
import { typiaPathToPointer } from './json-pointer.js';

export type { ExperimentStatus, VariantStrategy };

export interface WireExperiment {
  /** The placement (the widgetId its recommendation requests carry). */
  widgetId: string & tags.MinLength<1> & tags.MaxLength<64>;
  name?: (string & tags.MaxLength<120>) | null;
  /** 2-15 variants: A (the control), B, … in this order. */
  variants: WireVariant[] & tags.MinItems<2> & tags.MaxItems<15>;
}

export interface WireVariant {
  /** A strategy, or "auto" for the automatic choice. */
  strategy: VariantStrategy;
  /** Its share of the placement's shoppers: weights, normalized to sum to 100 (at least one above 0). */
  share: number & tags.Minimum<0> & tags.Maximum<100>;
}

export interface ExperimentRecord {
  /** 1, 2, 3… per shop: `exp_<number>` on the wire, and in recIds. */
  number: number;
  name: string;
  widgetId: string;
  /** Shares normalized to sum to 100. */
  variants: { strategy: VariantStrategy; share: number }[];
  status: ExperimentStatus;
  createdAt: number;
  startedAt?: number;
  stoppedAt?: number;
  concludedAt?: number;
}

/** A new experiment as validated: what its creation stores beside its number, status and time. */
export type NewExperiment = Omit<ExperimentRecord, 'number' | 'status' | 'createdAt'>;

export type ExperimentParse = { ok: true; experiment: NewExperiment } | { ok: false; errors: FieldError[] };

const validate = typia.createValidate<WireExperiment>();

/** Never throws: every problem becomes a field error with its JSON pointer. */
export function parseExperiment(input: unknown): ExperimentParse {
  const result = validate(input);
  if (!result.success) {
    return { ok: false, errors: result.errors.map((e) => ({ pointer: typiaPathToPointer(e.path, ''), detail: `must be ${e.expected.replace(/"/g, "'")}` })) };
  }
  const { widgetId, name, variants } = result.data;
  if (variants.length > MAX_VARIANTS) return { ok: false, errors: [{ pointer: '/variants', detail: `at most ${MAX_VARIANTS} variants` }] };
  const total = variants.reduce((sum, v) => sum + v.share, 0);
  if (!(total > 0)) return { ok: false, errors: [{ pointer: '/variants', detail: 'at least one variant must have a share above 0' }] };
  return {
    ok: true,
    experiment: { widgetId, name: name ?? widgetId, variants: variants.map((v) => ({ strategy: v.strategy, share: (v.share * 100) / total })) },
  };
}

/** The record as the API shows it. */
export function experimentView(record: ExperimentRecord) {
  return {
    id: `exp_${record.number}`,
    name: record.name,
    widgetId: record.widgetId,
    status: record.status,
    variants: record.variants.map((v, i) => ({ variant: String.fromCharCode(65 + i), strategy: v.strategy, share: v.share })),
    createdAt: new Date(record.createdAt).toISOString(),
    ...(record.startedAt === undefined ? {} : { startedAt: new Date(record.startedAt).toISOString() }),
    ...(record.stoppedAt === undefined ? {} : { stoppedAt: new Date(record.stoppedAt).toISOString() }),
    ...(record.concludedAt === undefined ? {} : { concludedAt: new Date(record.concludedAt).toISOString() }),
  };
}

/** POST /api/experiments's body (see parseExperiment); throws invalid_experiment with every field error. */
export function experimentBody(input: unknown): NewExperiment {
  const parsed = parseExperiment(input);
  if (!parsed.ok) throw invalidFields('invalid_experiment', parsed.errors, 'experiment');
  return parsed.experiment;
}
