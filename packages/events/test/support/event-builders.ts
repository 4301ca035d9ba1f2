import { createEvent } from '../../src/create/create-event.js';
import type { AnyThinkingBlock } from '../../src/schemas/content.js';
import type { Condensation } from '../../src/schemas/control-events.js';
import type {
  ActionEvent,
  AgentErrorEvent,
  MessageEvent,
  ObservationEvent,
  SystemPromptEvent,
} from '../../src/schemas/llm-convertible-events.js';

/** Small builders for conversation events with readable ids (`A-<call>`, `O-<call>`...). */
export const text = (value: string) => ({ cache_prompt: false, type: 'text' as const, text: value });

export function system(prompt = 'You are helpful.', id = 'S'): SystemPromptEvent {
  return createEvent('SystemPromptEvent', { id, source: 'agent', system_prompt: text(prompt), tools: [] });
}

export function userMessage(value: string, id = `M-${value}`): MessageEvent {
  return createEvent('MessageEvent', { id, source: 'user', llm_message: { role: 'user', content: [text(value)] } });
}

export function agentMessage(value: string, id = `R-${value}`): MessageEvent {
  return createEvent('MessageEvent', {
    id,
    source: 'agent',
    llm_message: { role: 'assistant', content: [text(value)] },
  });
}

export function action(
  callId: string,
  responseId: string,
  options: { thought?: string; thinking?: AnyThinkingBlock[]; executable?: boolean; args?: string } = {},
): ActionEvent {
  const args = options.args ?? JSON.stringify({ command: `run ${callId}` });
  return createEvent('ActionEvent', {
    id: `A-${callId}`,
    source: 'agent',
    thought: options.thought === undefined ? [] : [text(options.thought)],
    thinking_blocks: options.thinking ?? [],
    ...(options.executable === false ? {} : { action: { kind: 'TerminalAction', command: `run ${callId}` } }),
    tool_name: 'terminal',
    tool_call_id: callId,
    tool_call: { id: callId, name: 'terminal', arguments: args, origin: 'completion' },
    llm_response_id: responseId,
  });
}

export function observation(callId: string, output = `out ${callId}`, id = `O-${callId}`): ObservationEvent {
  return createEvent('ObservationEvent', {
    id,
    source: 'environment',
    tool_name: 'terminal',
    tool_call_id: callId,
    action_id: `A-${callId}`,
    observation: { kind: 'TerminalObservation', content: [text(output)], is_error: false },
  });
}

export function agentError(callId: string, error = `bad ${callId}`, id = `E-${callId}`): AgentErrorEvent {
  return createEvent('AgentErrorEvent', { id, source: 'agent', tool_name: 'terminal', tool_call_id: callId, error });
}

export function condensation(
  id: string,
  forgotten: string[],
  summary?: { summary: string; offset: number },
): Condensation {
  return createEvent('Condensation', {
    id,
    source: 'environment',
    forgotten_event_ids: forgotten,
    ...(summary === undefined ? {} : { summary: summary.summary, summary_offset: summary.offset }),
    llm_response_id: `resp-${id}`,
  });
}

export const thinking: AnyThinkingBlock[] = [{ type: 'thinking', thinking: 'hmm', signature: 'sig' }];
