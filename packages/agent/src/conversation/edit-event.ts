import { type AnyEvent, eventTimestamp, newEventId, safeParseEvent } from '@x/events';
import { settleWaiting } from '../approvals/decide.js';
import { treeOf } from '../state/fold-branch.js';
import { approvalHostOf } from './approval-host-of.js';
import { readAllEvents } from './branch-history.js';
import { conversationRunHost } from './conversation-hosts.js';
import type { ConversationParts, PartsOwner } from './conversation-parts.js';
import { ConversationAlreadyRunningError } from './errors/conversation-already-running-error.js';
import { InvalidEventEditError } from './errors/invalid-event-edit-error.js';
import { UnknownEventError } from './errors/unknown-event-error.js';

/**
 * The new content of an edited event: a string replaces a message's text (a MessageEvent), an object replaces
 * top-level fields the event already has (`id`, `kind`, `parent_id` and `timestamp` are the copy's own).
 */
export type EventEdit = string | Readonly<Record<string, unknown>>;

const OWN_FIELDS = new Set(['id', 'kind', 'parent_id', 'timestamp']);

/**
 * `Conversation.editEvent`: a new branch whose copy of `eventId` carries `content`. The copy is a new event (new
 * id and timestamp) whose parent is the original's parent, so the original and everything after it stay in the
 * log on their branch; HEAD moves to the copy (and, with workspace checkpoints, the files to that point). The
 * copy is validated as an event of the reference format before anything is written.
 */
export async function editConversationEvent(
  owner: PartsOwner & { navigateTo(eventId: string | null): Promise<void> },
  parts: ConversationParts,
  eventId: string,
  content: EventEdit,
): Promise<AnyEvent> {
  parts.lifecycle.assertOpen();
  if (owner.isRunning) throw new ConversationAlreadyRunningError(owner.id);
  await parts.events.settled();
  const events = await readAllEvents(owner.log);
  const tree = treeOf(events, (index) => owner.log.idAt(index));
  if (!tree.has(eventId)) throw new UnknownEventError(owner.id, eventId);
  const original = events[tree.indexOf(eventId)];
  if (original === undefined) throw new InvalidEventEditError(eventId, 'its file cannot be read');
  if (original.kind === 'ConversationStateUpdateEvent') {
    throw new InvalidEventEditError(eventId, 'a state update is not a step of the conversation');
  }
  const path = tree.pathToRoot(eventId);
  const parentIndex = path.at(-2);
  // By the log's name, not the parsed event: a parent whose file cannot be read is still the copy's parent.
  const parent = parentIndex === undefined ? null : owner.log.idAt(parentIndex);

  const edited = safeParseEvent({
    ...withoutOwnFields(original),
    ...changesFor(original, content),
    id: newEventId(),
    timestamp: eventTimestamp(),
  });
  if (!edited.success) throw new InvalidEventEditError(eventId, edited.error.message, { cause: edited.error });

  await owner.navigateTo(parent);
  await parts.events.emit(edited.event);
  // A copy of an action is an action with no result: it waits for a decision (an ActionEvent folds an idle
  // conversation to running, and the next step ran it undecided), as `navigateTo` onto one does.
  await settleWaiting(approvalHostOf(conversationRunHost(owner, parts)));
  await owner.checkpoint();
  // As appended: stamped with its parent.
  return owner.log.getById(edited.event.id);
}

function withoutOwnFields(event: AnyEvent): Record<string, unknown> {
  return Object.fromEntries(Object.entries(event).filter(([key]) => key === 'kind' || !OWN_FIELDS.has(key)));
}

function changesFor(original: AnyEvent, content: EventEdit): Record<string, unknown> {
  if (typeof content === 'string') {
    if (original.kind !== 'MessageEvent') {
      throw new InvalidEventEditError(original.id, `a ${original.kind} has no text to replace: give fields instead`);
    }
    // Only the text is replaced: images stay where they were, the first text part keeps its settings.
    const parts = original.llm_message.content;
    const first = parts.findIndex((part) => part.type === 'text');
    const text = { ...parts[first], type: 'text', text: content };
    const kept = parts.flatMap<unknown>((part, index) =>
      index === first ? [text] : part.type === 'text' ? [] : [part],
    );
    return { llm_message: { ...original.llm_message, content: first === -1 ? [text, ...kept] : kept } };
  }
  for (const key of Object.keys(content)) {
    if (OWN_FIELDS.has(key)) throw new InvalidEventEditError(original.id, `${key} is the copy's own and cannot be set`);
    // Own fields only: `constructor` or `toString` is no field of an event, whatever every object inherits.
    if (!Object.hasOwn(original, key))
      throw new InvalidEventEditError(original.id, `a ${original.kind} has no field ${key}`);
  }
  return { ...content };
}
