import { EventsError } from '../errors.js';

export interface EventParseIssue {
  /** Path of the offending field, e.g. `llm_message.content[0].text`. */
  readonly path: string;
  readonly message: string;
}

/** An event's JSON is invalid. Names the event id (when present), its kind and the field paths. */
export class EventParseError extends EventsError {
  readonly eventId: string | undefined;
  readonly eventKind: string | undefined;
  readonly issues: readonly EventParseIssue[];

  constructor(options: { eventId?: string; eventKind?: string; issues: EventParseIssue[]; cause?: unknown }) {
    const where = [
      options.eventKind ? `kind ${options.eventKind}` : 'unknown kind',
      options.eventId ? `id ${options.eventId}` : 'no id',
    ].join(', ');
    const details = options.issues.map((issue) => `${issue.path || '(root)'}: ${issue.message}`).join('; ');
    super('invalid_event', `Invalid event (${where}): ${details}`, { cause: options.cause });
    this.eventId = options.eventId;
    this.eventKind = options.eventKind;
    this.issues = options.issues;
  }
}
