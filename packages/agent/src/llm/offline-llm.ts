import type { Message } from '@x/events';
import { LLMAbortedError } from './errors/llm-aborted-error.js';
import { LLMScriptExhaustedError } from './errors/llm-script-exhausted-error.js';
import { assistantMessage } from './internal/assistant-message.js';
import { roughJsonLength } from './internal/rough-json-length.js';
import type { LLM, LLMMessage, LLMRequest, LLMResponse } from './llm.js';
import type { TokenUsage } from './metrics.js';
import type { RecordedResponse } from './recording.js';
import { checkUsageId, DEFAULT_USAGE_ID } from './usage-id.js';

/** One scripted reply of the offline model. */
export interface OfflineTurn {
  content?: string;
  toolCalls?: { name: string; arguments: Record<string, unknown> }[];
  reasoning?: string;
}

export type OfflineScript = OfflineTurn[] | ((request: LLMRequest, turnIndex: number) => OfflineTurn);

export type OfflineLLMOptions = { usageId?: string } & ({ script: OfflineScript } | { recording: RecordedResponse[] });

/** The offline model's name (always): stats record only a model's name, and budgets count its tokens as free. */
export const OFFLINE_MODEL_NAME = 'offline';
const offlineModel = OFFLINE_MODEL_NAME;

// Deterministic stand-in for a tokenizer: about four characters per token, at least one.
function roughTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Kept in place of a message that is not frozen (it may change before the next call): matches nothing. */
const UNSHARED = Symbol('unshared');

/**
 * `JSON.stringify(messages).length` (roughly: see `roughJsonLength`), remembered across the requests of one
 * model: the previous request's messages and `sums[i]`, the length of its first `i` messages. A conversation's
 * next request repeats the same frozen message objects and adds a few, so only the new ones are measured: one
 * identity comparison per message. Per model, not per process: one model's requests do not evict another's.
 */
function createPromptLength(): (messages: readonly LLMMessage[]) => number {
  const previous: { messages: unknown[]; sums: number[] } = { messages: [], sums: [0] };
  return (messages) => {
    const limit = Math.min(previous.messages.length, messages.length);
    let shared = 0;
    while (shared < limit && previous.messages[shared] === messages[shared]) shared += 1;
    // Truncated and extended in place: no copy of a long history per call. Popped, not `length =`: shrinking a long
    // array through its length was most of this function's time at 1,000 steps, where one message is dropped per call.
    while (previous.messages.length > shared) previous.messages.pop();
    while (previous.sums.length > shared + 1) previous.sums.pop();
    for (let index = shared; index < messages.length; index++) {
      const message = messages[index]!;
      previous.messages.push(Object.isFrozen(message) ? message : UNSHARED);
      previous.sums.push(previous.sums[index]! + (roughJsonLength(message) ?? 0));
    }
    return 2 + Math.max(0, messages.length - 1) + previous.sums[messages.length]!;
  };
}

function syntheticUsage(promptLength: number, message: Message, responseId: string): TokenUsage {
  const prompt = Math.max(1, Math.ceil(promptLength / 4));
  const completion = roughTokens(
    message.content.map((part) => (part.type === 'text' ? part.text : '')).join('') +
      (message.tool_calls ?? []).map((call) => call.name + call.arguments).join(''),
  );
  return {
    model: offlineModel,
    prompt_tokens: prompt,
    completion_tokens: completion,
    cache_read_tokens: 0,
    cache_write_tokens: 0,
    reasoning_tokens: 0,
    context_window: 0,
    per_turn_token: prompt + completion,
    response_id: responseId,
  };
}

/** Splits text into up to three pieces so streaming consumers see several deltas. */
function chunks(text: string): string[] {
  const size = Math.max(1, Math.ceil(text.length / 3));
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

function emitDeltas(request: LLMRequest, message: Message): void {
  if (!request.onDelta) return;
  if (message.reasoning_content) {
    for (const piece of chunks(message.reasoning_content)) request.onDelta({ reasoning_content: piece });
  }
  for (const part of message.content) {
    if (part.type !== 'text') continue;
    for (const piece of chunks(part.text)) request.onDelta({ content: piece });
  }
}

function turnMessage(turn: OfflineTurn, responseNumber: string): Message {
  return assistantMessage({
    content: turn.content,
    toolCalls: (turn.toolCalls ?? []).map((call, index) => ({
      id: `call_offline_${responseNumber}_${index}`,
      name: call.name,
      arguments: JSON.stringify(call.arguments),
    })),
    reasoningContent: turn.reasoning,
  });
}

/**
 * A model that needs no network and no key: it answers from a script (a list of turns or a function of
 * the request) or replays a recorded conversation, deterministically. Asking for more turns than there
 * are raises `LLMScriptExhaustedError`.
 */
export function createOfflineLLM(options: OfflineLLMOptions): LLM {
  let turnIndex = 0;
  const promptLength = createPromptLength();

  function next(request: LLMRequest): { id: string; message: Message } {
    const index = turnIndex;
    const responseNumber = index + 1;
    if ('recording' in options) {
      const recorded = options.recording[index];
      if (!recorded) {
        throw new LLMScriptExhaustedError(
          `The offline model's recording has ${options.recording.length} responses; call ${responseNumber} has none`,
        );
      }
      turnIndex += 1;
      return { id: recorded.id, message: recorded.message };
    }
    const { script } = options;
    const turn = typeof script === 'function' ? script(request, index) : script[index];
    if (!turn) {
      throw new LLMScriptExhaustedError(
        `The offline model's script has ${Array.isArray(script) ? script.length : 'no more'} turns; call ${responseNumber} has none`,
      );
    }
    turnIndex += 1;
    // A resumed conversation gets a new model instance whose count starts again at 1; the length of the history
    // it is shown keeps its response and tool call ids apart from the earlier instance's, which the condensation
    // View (like the reference's) tells apart by response id. Still deterministic for the same request.
    const responseId = `${responseNumber}_${request.messages.length}`;
    return { id: `offline-${responseId}`, message: turnMessage(turn, responseId) };
  }

  return {
    model: offlineModel,
    usageId: checkUsageId(options.usageId ?? DEFAULT_USAGE_ID),
    offline: true,
    async complete(request: LLMRequest): Promise<LLMResponse> {
      if (request.signal?.aborted) {
        throw new LLMAbortedError('The request to the offline model was aborted', { cause: request.signal.reason });
      }
      const { id, message } = next(request);
      emitDeltas(request, message);
      return {
        id,
        message,
        finishReason: message.tool_calls ? 'tool_calls' : 'stop',
        usage: syntheticUsage(promptLength(request.messages), message, id),
        cost: 0,
        latencySeconds: 0,
      };
    },
  };
}

/**
 * The quickstart demo, task "Create hello.txt containing a greeting, then show its contents": create the
 * file with `file_editor`, `cat` it with `terminal`, then `finish`.
 */
export function builtInDemoScript(): OfflineTurn[] {
  return [
    {
      content: 'I will create hello.txt with a greeting.',
      toolCalls: [
        {
          name: 'file_editor',
          arguments: {
            command: 'create',
            path: 'hello.txt',
            file_text: 'Hello from the offline model!\n',
            security_risk: 'LOW',
            summary: 'create hello.txt',
          },
        },
      ],
    },
    {
      content: 'Now I will show its contents.',
      toolCalls: [
        { name: 'terminal', arguments: { command: 'cat hello.txt', security_risk: 'LOW', summary: 'show hello.txt' } },
      ],
    },
    {
      toolCalls: [
        {
          name: 'finish',
          arguments: {
            message:
              'Created hello.txt and showed its contents. (This run used the built-in offline model: no network, no API key.)',
          },
        },
      ],
    },
  ];
}
