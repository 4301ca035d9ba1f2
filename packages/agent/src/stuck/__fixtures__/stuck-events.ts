import { type ActionEvent, type AnyEvent, createEvent } from '@x/events';

let callCounter = 0;

/** A fresh ActionEvent (new ids every time) for a terminal-like call with the given command. */
export function action(command: string, options: { thought?: string; toolName?: string } = {}): ActionEvent {
  callCounter++;
  const toolName = options.toolName ?? 'terminal';
  return createEvent('ActionEvent', {
    thought: options.thought === undefined ? [] : [{ type: 'text', text: options.thought }],
    action: { kind: 'TerminalAction', command },
    tool_name: toolName,
    tool_call_id: `call_${callCounter}`,
    tool_call: {
      id: `call_${callCounter}`,
      name: toolName,
      arguments: JSON.stringify({ command }),
      origin: 'completion',
    },
    llm_response_id: `resp_${callCounter}`,
  });
}

/** The ObservationEvent answering `answered` with the given output text. */
export function observation(answered: ActionEvent, output: string): AnyEvent {
  return createEvent('ObservationEvent', {
    tool_name: answered.tool_name,
    tool_call_id: answered.tool_call_id,
    action_id: answered.id,
    observation: { kind: 'TerminalObservation', content: [{ type: 'text', text: output }] },
  });
}

export function agentError(answered: ActionEvent, error: string): AnyEvent {
  return createEvent('AgentErrorEvent', {
    tool_name: answered.tool_name,
    tool_call_id: answered.tool_call_id,
    error,
  });
}

export function message(source: 'user' | 'agent' | 'environment', text: string): AnyEvent {
  return createEvent('MessageEvent', {
    source,
    llm_message: { role: source === 'agent' ? 'assistant' : 'user', content: [{ type: 'text', text }] },
  });
}

/** `count` times: the same call answered by the same output, as fresh events. */
export function repeatedPairs(count: number, command = 'ls', output = 'a.txt'): AnyEvent[] {
  return Array.from({ length: count }, () => {
    const call = action(command);
    return [call, observation(call, output)];
  }).flat();
}

/** `count` times: the same call answered by an AgentErrorEvent whose text is `error(i)`. */
export function repeatedErrors(count: number, error: (index: number) => string = () => 'boom'): AnyEvent[] {
  return Array.from({ length: count }, (_, index) => {
    const call = action('cat missing.txt');
    return [call, agentError(call, error(index))];
  }).flat();
}

export function stateUpdate(): AnyEvent {
  return createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: 'running' });
}
