// A shop's scheduled product feed (PUT /api/integrations/feed), kept in its record (so in its log):
// the URL, how often it is pulled, the version the last pull got (to ask conditionally) and what the
// last pull did. Each change is an action turned into the new settings inside the write transaction.
import type { FeedPullView } from '../api/integrations.js';

/** What one pull did, as GET /api/integrations/feed shows it, its times in epoch ms. */
export type FeedPullReport = Omit<FeedPullView, 'startedAt' | 'endedAt'> & { startedAt: number; endedAt: number };

export interface FeedSettings {
  url: string;
  everyMinutes: number;
  /** The validators the last complete pull got, for a conditional GET. */
  etag?: string;
  lastModified?: string;
  last?: FeedPullReport;
}

export type FeedAction =
  /** Sets the URL and interval; a new URL forgets the last version (its first pull is unconditional). */
  | { action: 'set'; url: string; everyMinutes: number }
  | { action: 'clear' }
  | { action: 'pulled'; url: string; report: FeedPullReport; etag?: string; lastModified?: string };

/** The settings after `action`; `current` itself when it changes nothing. A pull of a URL no longer set is dropped. */
export function nextFeedSettings(current: FeedSettings | undefined, action: FeedAction): FeedSettings | undefined {
  switch (action.action) {
    case 'set':
      if (current?.url === action.url) return current.everyMinutes === action.everyMinutes ? current : { ...current, everyMinutes: action.everyMinutes };
      return { url: action.url, everyMinutes: action.everyMinutes };
    case 'clear':
      return undefined;
    case 'pulled': {
      if (current === undefined || current.url !== action.url) return current;
      const { etag: _etag, lastModified: _modified, ...rest } = current;
      // A failed pull keeps the validators of the last complete one.
      const validators = action.report.complete && !action.report.notModified ? { etag: action.etag, lastModified: action.lastModified } : { etag: current.etag, lastModified: current.lastModified };
      return { ...rest, ...(validators.etag ? { etag: validators.etag } : {}), ...(validators.lastModified ? { lastModified: validators.lastModified } : {}), last: action.report };
    }
  }
}
