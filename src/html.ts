// Safe HTML strings for the server-rendered pages (the dashboard's, the demo store's): every value put
// into an html`` template is escaped unless it is itself Html (another template or raw()). Attribute
// values must be quoted in the template.

export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}

/** Trusted markup, e.g. a stylesheet constant. Never for data. */
export function raw(text: string): Html {
  return new Html(text);
}

function render(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  if (value === undefined || value === null || value === false) return '';
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** JSON inside a <script> element: `<` escaped so no string can close the element. */
export function scriptJson(value: unknown): Html {
  return raw(JSON.stringify(value).replace(/</g, '\\u003c'));
}
