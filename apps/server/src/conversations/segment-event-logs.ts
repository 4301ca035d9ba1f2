import type { ConversationOptions } from '@x/agent';
import { EventLog } from '@x/store';

/**
 * How a single server's conversations open their event logs with `eventLogLayout: 'segment'`: new logs get a
 * segment (one append-only file per conversation as the commit point); a log created before keeps its layout
 * (see the @x/store README, "Segment layout").
 */
export function segmentEventLogOpener(): NonNullable<ConversationOptions['openEventLog']> {
  return ({ store, dir }) => EventLog.open(store, { dir, layout: 'segment' });
}
