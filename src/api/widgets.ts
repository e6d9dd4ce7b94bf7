// The merchant's widget ids (PUT /api/shop/widgets): the wire type, its typia validator and normalization.
import typia, { type tags } from 'typia';
import { MAX_REGISTERED_WIDGETS } from '../engine/attribution/widget-names.js';
import { invalidFields, type FieldError } from '../errors.js';
import { typiaPathToPointer } from './json-pointer.js';

export interface WireWidgets {
  /** Every widget id the shop's pages send (an event's `widgetId`); replaces the list registered before. At most 64. */
  widgets: (string & tags.MinLength<1> & tags.MaxLength<128>)[] & tags.MaxItems<64>;
}

/** The registered widgets as answered (and as GET /api/shop shows them). */
export interface RegisteredWidgets {
  widgets: string[];
}

export type WidgetsParse = { ok: true; widgets: string[] } | { ok: false; errors: FieldError[] };

const validate = typia.createValidate<WireWidgets>();

/** Never throws: every problem is a field error with its JSON pointer. Repeated ids are kept once, in order. */
export function parseWidgets(input: unknown): WidgetsParse {
  const result = validate(input);
  if (!result.success) {
    return { ok: false, errors: result.errors.map((e) => ({ pointer: typiaPathToPointer(e.path, ''), detail: `must be ${e.expected.replace(/"/g, "'")}` })) };
  }
  const widgets = [...new Set(result.data.widgets)];
  // typia's MaxItems and this bound are one number: the model names no more (widget-names.ts).
  if (widgets.length > MAX_REGISTERED_WIDGETS) return { ok: false, errors: [{ pointer: '/widgets', detail: `at most ${MAX_REGISTERED_WIDGETS} widgets` }] };
  return { ok: true, widgets };
}

/** PUT /api/shop/widgets's body: the widget ids (see parseWidgets); throws invalid_widgets. */
export function widgetsBody(input: unknown): string[] {
  const parsed = parseWidgets(input);
  if (!parsed.ok) throw invalidFields('invalid_widgets', parsed.errors, 'body');
  return parsed.widgets;
}
