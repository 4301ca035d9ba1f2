import { MultiActionThoughtError } from '../errors/multi-action-thought-error.js';
import type { Message, MessageToolCall } from '../schemas/content.js';
import type { AnyEvent } from '../schemas/events.js';
import { isAppendOnly } from '../view/append-only-arrays.js';
import { actionMessage, eventToLlmMessage, hasLlmMessage } from './event-to-llm-message.js';

/**
 * What the last conversion of an event array produced, so the next conversion of the same array (a
 * View's live `events`, which grows by appends) converts only what changed: `events` are the
 * elements converted (references, compared on reuse), `starts[i]` the index in `events` of the first
 * event of `messages[i]`.
 */
interface Memo {
  events: AnyEvent[];
  messages: Message[];
  starts: number[];
}

/** Keyed by the caller's array object: a View's live events array is converted incrementally. */
const memos = new WeakMap<readonly AnyEvent[], Memo>();

/**
 * The LLM messages of an event list, normally `view.events` (reference §5), in log order:
 * consecutive ActionEvents sharing `llm_response_id` become one assistant message (thought,
 * reasoning and thinking from the first; a later member with a thought throws
 * `MultiActionThoughtError`), and consecutive plain user messages are merged into one.
 * Events without an LLM message (control and opaque events) are skipped and do not split a batch.
 * Tool results are not reordered and missing results are not repaired: that is the View's job.
 * Never changes its input. The messages are frozen.
 *
 * Incremental: converting the same array object again (a View's live `events`) reuses the messages
 * of its unchanged prefix (checked element by element, by reference) and converts only the rest, so a
 * step of a long conversation costs what its new events cost plus one pointer comparison per event.
 * Conversions must be pure (registered `toLlmMessage` / `toLlmContent` hooks included).
 */
export function eventsToMessages(events: readonly AnyEvent[]): Message[] {
  let memo = memos.get(events);
  if (memo === undefined) {
    memo = { events: [], messages: [], starts: [] };
    memos.set(events, memo);
  }
  const max = Math.min(memo.events.length, events.length);
  // A View's fold is only pushed onto (`isAppendOnly`): what the memo holds of it is still there, so the prefix
  // needs no comparing (element by element, that was a walk over the whole view at every step).
  let same = isAppendOnly(events) ? max : 0;
  while (same < max && events[same] === memo.events[same]) same++;
  // Message i is final once message i + 1 starts inside the unchanged prefix: nothing after can
  // extend it (a batch or a merge ends at the first event that does not join it).
  let keep = lastStartBefore(memo.starts, same);
  let from = keep === 0 ? 0 : memo.starts[keep]!;
  // A tool message is built from one event and nothing extends it (only batches and plain user messages
  // grow): it is final as soon as its event is unchanged. The last message of a step is usually one, and
  // keeping it keeps its object, which callers compare by identity (the offline model's length memo).
  if (keep < memo.messages.length && memo.starts[keep]! < same && memo.messages[keep]!.role === 'tool') {
    from = memo.starts[keep]! + 1;
    keep++;
  }
  // The memo is updated in place (a step of a long conversation copied it whole three times): it is
  // dropped if the conversion throws, so a half-updated memo is never reused.
  try {
    truncate(memo.messages, keep);
    truncate(memo.starts, keep);
    convertFrom(events, from, memo.messages, memo.starts);
  } catch (error) {
    memos.delete(events);
    throw error;
  }
  truncate(memo.events, same);
  for (let index = same; index < events.length; index++) memo.events.push(events[index]!);
  return memo.messages.slice();
}

/**
 * The last message index `k` whose next message starts before `same` (`starts[k + 1] < same`), or 0: a binary
 * search, `starts` being increasing (a linear scan walked every message of the conversation at every step).
 */
function lastStartBefore(starts: readonly number[], same: number): number {
  let low = 1;
  let high = starts.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (starts[middle]! < same) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

/** Shortens an array in place by popping (cheaper than assigning `length` on a long array). */
function truncate(array: unknown[], length: number): void {
  while (array.length > length) array.pop();
}

/** Converts `events[from..]`, appending to `out` (whose messages are final) and `starts`. */
function convertFrom(events: readonly AnyEvent[], from: number, out: Message[], starts: number[]): void {
  const firstNew = out.length;
  // True when out's last message was built here by merging, so its content array is ours to extend.
  let lastIsOwnedMerge = false;
  let i = from;
  while (i < events.length) {
    const event = events[i] as AnyEvent;
    const start = i;
    if (!hasLlmMessage(event)) {
      i += 1;
      continue;
    }
    let message: Message | undefined;
    if (event.kind === 'ActionEvent') {
      const toolCalls: MessageToolCall[] = [event.tool_call];
      let j = i + 1;
      for (; j < events.length; j++) {
        const next = events[j] as AnyEvent;
        if (!hasLlmMessage(next)) continue;
        if (next.kind !== 'ActionEvent' || next.llm_response_id !== event.llm_response_id) break;
        if (next.thought.length > 0) {
          throw new MultiActionThoughtError({ eventId: next.id, llmResponseId: next.llm_response_id });
        }
        toolCalls.push(next.tool_call);
      }
      message = actionMessage(event, toolCalls);
      i = j;
    } else {
      message = eventToLlmMessage(event);
      i += 1;
    }
    if (message === undefined) continue;

    const previous = out[out.length - 1];
    if (previous !== undefined && isPlainUserMessage(previous) && isPlainUserMessage(message)) {
      if (lastIsOwnedMerge) {
        previous.content.push(...message.content);
      } else {
        out[out.length - 1] = { ...previous, content: [...previous.content, ...message.content] };
        lastIsOwnedMerge = true;
      }
      continue;
    }
    out.push(message);
    starts.push(start);
    lastIsOwnedMerge = false;
  }
  // Reused by later conversions and shared between callers: nobody may change them.
  for (let k = Math.max(0, firstNew - 1); k < out.length; k++) freezeMessage(out[k]!);
}

function freezeMessage(message: Message): void {
  if (Object.isFrozen(message)) return;
  Object.freeze(message.content);
  if (message.tool_calls !== undefined) Object.freeze(message.tool_calls);
  if (message.thinking_blocks !== undefined) Object.freeze(message.thinking_blocks);
  Object.freeze(message);
}

/** Role user with no tool calls, tool_call_id or name: the only messages the reference merges. */
function isPlainUserMessage(message: Message): boolean {
  return (
    message.role === 'user' &&
    message.tool_calls === undefined &&
    message.tool_call_id === undefined &&
    message.name === undefined
  );
}
