// The rules section: the shop's rules (enable or disable, edit, delete), an editor taking a rule's
// JSON as PUT /api/rules/{id} does, and a live preview of a chosen query before and after the
// rule in the editor (nothing is stored until Save). Changes go through the CSRF-protected data
// routes, then the list is redrawn.
import { deleteRule, previewRule, ProblemError, rules, saveRule } from './api';
import { byId, el, fill } from './dom';
import type { PreviewItem, Rule } from './types';

const EXAMPLE = { enabled: true, when: { strategies: ['trending'] }, then: { hide: 'tag:clearance', pin: [{ productId: '1001', position: 1 }] } };

/** What went wrong, said once: each field's error with its pointer (its detail names the position), else the problem's detail. */
function message(error: unknown): string {
  if (error instanceof ProblemError) {
    const fields = error.problem.errors?.map((e) => `${e.pointer}: ${e.detail}`);
    return fields !== undefined && fields.length > 0 ? fields.join('; ') : error.problem.detail;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The editable body of a stored rule (what PUT takes back). */
function bodyOf(rule: Rule): Record<string, unknown> {
  const { id: _id, updatedAt: _updatedAt, ...body } = rule;
  return body;
}

/** The editor's fields, and where what Save and Preview did is said (beside the editor); the list's own status is #rule-status. */
function editor(): { id: HTMLInputElement; json: HTMLTextAreaElement; status: HTMLElement } {
  return { id: byId<HTMLInputElement>('rule-id'), json: byId<HTMLTextAreaElement>('rule-json'), status: byId('rule-editor-status') };
}

function edit(rule: Rule): void {
  const { id, json } = editor();
  id.value = rule.id;
  json.value = JSON.stringify(bodyOf(rule), null, 2);
  id.scrollIntoView({ block: 'nearest' });
}

function summary(rule: Rule): string {
  const parts = Object.keys(rule.then);
  const when = Object.keys(rule.when);
  const window = rule.from || rule.until ? ` · ${rule.from?.slice(0, 16) ?? '…'} → ${rule.until?.slice(0, 16) ?? '…'}` : '';
  return `${parts.join(', ') || 'nothing'}${when.length > 0 ? ` when ${when.join(', ')}` : ''}${window}`;
}

function row(rule: Rule): HTMLElement {
  const status = byId('rule-status');
  const toggle = el('input', { type: 'checkbox', 'aria-label': `Enable ${rule.id}`, 'data-toggle': rule.id });
  toggle.checked = rule.enabled;
  toggle.addEventListener('change', async () => {
    toggle.disabled = true;
    try {
      await saveRule(rule.id, { ...bodyOf(rule), enabled: toggle.checked });
      fill(status, `${rule.id} ${toggle.checked ? 'enabled' : 'disabled'}.`);
      await loadRules();
    } catch (error) {
      fill(status, message(error));
      toggle.checked = !toggle.checked;
      toggle.disabled = false;
    }
  });
  const editButton = el('button', { type: 'button', class: 'secondary', 'data-edit': rule.id }, 'Edit');
  editButton.addEventListener('click', () => edit(rule));
  const remove = el('button', { type: 'button', class: 'secondary', 'data-delete': rule.id }, 'Delete');
  remove.addEventListener('click', async () => {
    if (!confirm(`Delete the rule ${rule.id}?`)) return;
    try {
      await deleteRule(rule.id);
      fill(status, `Deleted ${rule.id}.`);
      await loadRules();
    } catch (error) {
      fill(status, message(error));
    }
  });
  return el('tr', { 'data-rule': rule.id }, el('td', {}, toggle), el('th', { scope: 'row' }, el('code', {}, rule.id)), el('td', {}, summary(rule)), el('td', { class: 'actions' }, editButton, ' ', remove));
}

export async function loadRules(): Promise<void> {
  const all = await rules();
  const body = all.length === 0 ? [el('tr', {}, el('td', { colspan: '4', class: 'empty' }, 'No rules yet: write one below.'))] : all.map(row);
  // In its own scroll box, as every table of the page: a phone never scrolls the page sideways.
  const table = el('table', {}, el('thead', {}, el('tr', {}, ...['On', 'Rule', 'What it does', ''].map((h) => el('th', { scope: 'col' }, h)))), el('tbody', {}, ...body));
  fill(byId('rules'), el('div', { class: 'scroll' }, table));
}

function list(caption: string, items: PreviewItem[], other: PreviewItem[]): HTMLElement {
  const elsewhere = new Set(other.map((p) => p.id));
  return el(
    'div',
    { class: 'preview-list', 'data-preview': caption.toLowerCase() },
    el('h4', {}, caption),
    el(
      'ol',
      {},
      ...items.map((p) =>
        el('li', { 'data-product': p.id.replace(/^gid:\/\/[^/]+\/Product\//, ''), class: elsewhere.has(p.id) ? undefined : 'changed' }, p.title, p.ruleId ? el('span', { class: 'pin' }, ` pinned by ${p.ruleId}`) : ''),
      ),
    ),
  );
}

/** The editor: Save puts the rule; Preview shows the chosen query's answer before and after it. */
export function setUpRuleEditor(): void {
  const { id, json, status } = editor();
  const listStatus = byId('rule-status');
  json.value = JSON.stringify(EXAMPLE, null, 2);
  const parse = (): unknown => {
    try {
      return JSON.parse(json.value) as unknown;
    } catch (error) {
      throw new Error(`the rule is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  byId('rule-save').addEventListener('click', async () => {
    fill(listStatus);
    try {
      const saved = await saveRule(id.value.trim(), parse());
      fill(status, `Saved ${saved.rule.id}: it applies from the next request.`);
      await loadRules();
    } catch (error) {
      fill(status, message(error));
    }
  });
  byId('rule-preview').addEventListener('click', async () => {
    const out = byId('rule-preview-result');
    fill(listStatus);
    try {
      const query = byId<HTMLInputElement>('rule-query').value.trim();
      const { before, after } = await previewRule(id.value.trim() || 'draft', parse(), query);
      fill(out, list('Before', before.products, after.products), list('After', after.products, before.products));
      fill(status, '');
    } catch (error) {
      fill(out);
      fill(status, message(error));
    }
  });
}
