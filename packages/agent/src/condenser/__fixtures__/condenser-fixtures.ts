import { type AnyEvent, createEvent, type LLMConvertibleEvent, View } from '@x/events';
import type { LLM, LLMRequest, LLMResponse } from '../../llm/llm.js';

export interface FakeLLM extends LLM {
  readonly requests: LLMRequest[];
  maxInputTokens?: number;
}

/** A test double answering each request with `reply(request, index)`; a thrown error is the LLM failing. */
export function fakeLLM(
  reply: (request: LLMRequest, index: number) => string | null = () => 'SUMMARY',
  options: { maxInputTokens?: number } = {},
): FakeLLM {
  const requests: LLMRequest[] = [];
  return {
    model: 'fake-model',
    usageId: 'condenser',
    offline: true,
    requests,
    ...(options.maxInputTokens !== undefined && { maxInputTokens: options.maxInputTokens }),
    async complete(request: LLMRequest): Promise<LLMResponse> {
      requests.push(request);
      const text = reply(request, requests.length - 1);
      return {
        id: `summary-response-${requests.length}`,
        message: {
          role: 'assistant',
          content: text === null ? [] : [{ type: 'text', text, cache_prompt: false }],
          thinking_blocks: [],
        },
        finishReason: 'stop',
        usage: null,
        cost: 0,
        latencySeconds: 0,
      };
    },
  };
}

/** The text of the single user message of a summarizing request. */
export function promptOf(request: LLMRequest): string {
  const [message] = request.messages;
  if (message?.role !== 'user' || typeof message.content !== 'string' || request.messages.length !== 1) {
    throw new Error('expected exactly one user message with string content');
  }
  return message.content;
}

/** The event texts inside `<EVENT>` tags of a summarizing prompt. */
export function eventTextsOf(request: LLMRequest): string[] {
  return [...promptOf(request).matchAll(/<EVENT>\n([\s\S]*?)\n<\/EVENT>/g)].map((match) => match[1]!);
}

/** `count` message events alternating user/agent, each with a unique text `event-<i>` (padded to `length`). */
export function messageEvents(count: number, length = 0): LLMConvertibleEvent[] {
  return Array.from({ length: count }, (_, index) => {
    const source = index % 2 === 0 ? 'user' : 'agent';
    const text = `event-${String(index).padStart(2, '0')}`.padEnd(length, '.');
    return createEvent('MessageEvent', {
      source,
      llm_message: { role: source === 'user' ? 'user' : 'assistant', content: [{ type: 'text', text }] },
    });
  });
}

/** A View of `events`, optionally with a pending CondensationRequest. */
export function viewOf(events: readonly AnyEvent[], options: { request?: boolean } = {}): View {
  const view = View.fromEvents(events);
  if (options.request) view.append(createEvent('CondensationRequest', {}));
  return view;
}

/** An action and its observation (one manipulation unit). */
export function toolPair(index: number): LLMConvertibleEvent[] {
  const call = createEvent('ActionEvent', {
    thought: [],
    action: { kind: 'TerminalAction', command: `echo ${index}` },
    tool_name: 'terminal',
    tool_call_id: `call_${index}`,
    tool_call: { id: `call_${index}`, name: 'terminal', arguments: '{"command": "echo"}', origin: 'completion' },
    llm_response_id: `resp_${index}`,
  });
  const result = createEvent('ObservationEvent', {
    tool_name: 'terminal',
    tool_call_id: `call_${index}`,
    action_id: call.id,
    observation: { kind: 'TerminalObservation', content: [{ type: 'text', text: `${index}` }] },
  });
  return [call, result];
}
