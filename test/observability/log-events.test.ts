// Every event the log names (src/observability/log.ts: each line's `event`, which an operator's
// alerts and searches match) is described in docs/operations.md's "Logs" section, so that a new
// event cannot be written without being documented.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

/** The event names `text` writes: each `event:` field's literal, or both of `event: failed ? 'x-failed' : 'x'`. */
function eventsWritten(text: string): string[] {
  const names: string[] = [];
  for (const [, first, second] of text.matchAll(/\bevent: (?:[^,\n}?']*\? )?'([a-z0-9-]+)'(?: : '([a-z0-9-]+)')?/g)) names.push(...[first!, second].filter((name) => name !== undefined));
  return names;
}

const logsSection = readFileSync('docs/operations.md', 'utf8').split(/^## /m).find((section) => section.startsWith('Logs'))!;

describe("the log's events", () => {
  test('When an event field holds one name or names one in each branch, then each is found', () => {
    expect(eventsWritten("log('a', { event: 'snapshot', shops }); log(x, { event: failed ? 'feed-pull-failed' : 'feed-pull', level });")).toEqual(['snapshot', 'feed-pull-failed', 'feed-pull']);
    expect(eventsWritten("function f(event: TrackedEvent) {} ({ event: sender === 'secret' ? { ...event, sender } : event })")).toEqual([]);
  });

  test('When src/ writes an event, then docs/operations.md describes it under Logs', () => {
    const written = new Set(sourceFiles('src').flatMap((file) => eventsWritten(readFileSync(file, 'utf8'))));
    expect(written.size).toBeGreaterThan(20);
    expect([...written].filter((name) => !logsSection.includes(`\`${name}\``) && !logsSection.includes(`"${name}"`)).sort()).toEqual([]);
  });
});
