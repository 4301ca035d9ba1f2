import type { ConversationOptions } from '@x/agent';
import { EventLog } from '@x/store';
import { UsageError } from '../errors/usage-error.js';

/**
 * The event-log layout `x run` creates new conversations with, from `X_EVENT_LOG_LAYOUT`: `files` (default, a
 * slot claim per event) or `segment` (one append-only file per conversation as the commit point, the reference's
 * event files derived from it: see the @x/store README, "Segment layout"). A resumed conversation keeps its own.
 */
export function eventLogLayoutOptions(env: NodeJS.ProcessEnv): Pick<ConversationOptions, 'openEventLog'> {
  const layout = env.X_EVENT_LOG_LAYOUT;
  if (layout === undefined || layout === '' || layout === 'files') return {};
  if (layout !== 'segment') {
    throw new UsageError(`X_EVENT_LOG_LAYOUT=${layout} is not a layout.`, {
      hint: 'Use files (the default) or segment.',
    });
  }
  return { openEventLog: ({ store, dir }) => EventLog.open(store, { dir, layout: 'segment' }) };
}
