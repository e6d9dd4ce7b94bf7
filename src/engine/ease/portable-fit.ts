// An EASE fit as it travels between processes: its items as product ids (each process numbers its
// products itself, in the order its catalog grew) and its rows as bytes. One process fits, every
// process installs the same rows, so all answer alike.
import type { Catalog } from '../catalog.js';
import { bytesOf, fromBytes } from '../typed-arrays.js';
import type { TuningReport } from '../tuning/tuned-settings.js';
import type { EaseFit } from './ease-model.js';

export interface PortableEaseFit {
  items: readonly string[];
  k: number;
  sizes: Uint8Array;
  ids: Uint8Array;
  weights: Uint8Array;
  /** The settings tuned with the fit, installed with it (absent: untuned, the defaults). */
  tuning?: TuningReport;
}

/** The fit with its dense ids named by product id. */
export function toPortable(catalog: Catalog, fit: EaseFit): PortableEaseFit {
  const ids = catalog.internedIds();
  const { rows } = fit;
  const portable: PortableEaseFit = { items: Array.from(fit.items, (dense) => ids[dense]!), k: rows.k, sizes: rows.sizes, ids: bytesOf(rows.ids), weights: bytesOf(rows.weights) };
  return fit.tuning === undefined ? portable : { ...portable, tuning: fit.tuning };
}

/** The fit over this catalog's dense ids (an id it has never seen gets one, as the catalog does for any id). */
export function fromPortable(catalog: Catalog, portable: PortableEaseFit): EaseFit {
  const items = Int32Array.from(portable.items, (id) => catalog.denseOf(id) ?? catalog.intern(id));
  const rows = { n: items.length, k: portable.k, sizes: portable.sizes, ids: fromBytes(Int32Array, portable.ids), weights: fromBytes(Float32Array, portable.weights) };
  return portable.tuning === undefined ? { items, rows } : { items, rows, tuning: portable.tuning };
}
