// The page's requests to its data routes (/dashboard/data/…): the session cookie goes by itself
// (same origin, HttpOnly); requests that change state carry the session's CSRF token, read from the
// page's <meta name="csrf-token">.
import type { Experiment, GroupBy, Problem, Rule, RulePreview, StatsAnswer } from './types';

export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

function csrfToken(): string {
  return document.querySelector<HTMLMetaElement>('meta[name="csrf-token"]')?.content ?? '';
}

async function answer<T>(response: Response): Promise<T> {
  if (response.status === 401) {
    // The session ended (signed out elsewhere, idle, key revoked): back to the sign-in form.
    location.assign('/dashboard');
    throw new ProblemError({ status: 401, code: 'unauthorized', detail: 'signed out' });
  }
  const body = (await response.json()) as unknown;
  if (!response.ok) throw new ProblemError(body as Problem);
  return body as T;
}

export async function stats(from: string, to: string, groupBy: GroupBy): Promise<StatsAnswer> {
  const query = new URLSearchParams({ from, to, groupBy });
  return answer<StatsAnswer>(await fetch(`/dashboard/data/stats?${query}`, { credentials: 'same-origin' }));
}

export async function experiments(): Promise<Experiment[]> {
  return (await answer<{ experiments: Experiment[] }>(await fetch('/dashboard/data/experiments', { credentials: 'same-origin' }))).experiments;
}

async function send<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { 'x-csrf-token': csrfToken() };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return answer<T>(await fetch(path, { method, credentials: 'same-origin', headers, body: body === undefined ? undefined : JSON.stringify(body) }));
}

function post<T>(path: string, body?: unknown): Promise<T> {
  return send<T>('POST', path, body);
}

export function createExperiment(body: { name: string; widgetId: string; variants: { strategy: string; share: number }[] }): Promise<Experiment> {
  return post<Experiment>('/dashboard/data/experiments', body);
}

export function experimentAction(id: string, action: 'start' | 'stop' | 'conclude'): Promise<Experiment> {
  return post<Experiment>(`/dashboard/data/experiments/${encodeURIComponent(id)}/${action}`);
}

export async function rules(): Promise<Rule[]> {
  return (await answer<{ rules: Rule[] }>(await fetch('/dashboard/data/rules', { credentials: 'same-origin' }))).rules;
}

/** Adds or replaces the rule `id` (the body as PUT /api/rules/{id} takes it). */
export function saveRule(id: string, body: unknown): Promise<{ rule: Rule }> {
  return send<{ rule: Rule }>('PUT', `/dashboard/data/rules/${encodeURIComponent(id)}`, body);
}

export function deleteRule(id: string): Promise<unknown> {
  return send('DELETE', `/dashboard/data/rules/${encodeURIComponent(id)}`);
}

/** The answer to `query` with the shop's rules, and with `rule` put as `id` (nothing stored). */
export function previewRule(id: string, rule: unknown, query: string): Promise<RulePreview> {
  return post<RulePreview>('/dashboard/data/rules/preview', { id, rule, query });
}
