import type { AnyEvent } from '@x/events';
import { ATTR } from './attributes.js';
import { otel, otelRegistered } from './otel.js';

/**
 * Records on the active span that it produced `event` (a span event named after the event's kind,
 * with `x.event.id`), so a trace and the event log can be joined. Nothing happens without a
 * recording span.
 */
export function linkEvent(event: AnyEvent): void {
  // Without a context manager the active context is always the root one: no active span.
  if (!otelRegistered('context')) return;
  const span = otel().trace.getActiveSpan();
  if (span === undefined || !span.isRecording()) return;
  span.addEvent(`x.event ${event.kind}`, { [ATTR.eventId]: event.id, 'x.event.kind': event.kind });
}
