import type { AnyEvent } from '@x/events';

/**
 * The agent's final answer (reference `get_agent_final_response`): the message of its last `finish` call,
 * or the text of its last message; `''` when it gave none.
 */
export async function agentFinalResponse(events: AsyncIterable<AnyEvent> | Iterable<AnyEvent>): Promise<string> {
  let answer = '';
  for await (const event of events) {
    if (event.kind === 'ActionEvent' && event.source === 'agent' && event.tool_name === 'finish') {
      const message = (event.action as { message?: unknown } | undefined)?.message;
      answer = typeof message === 'string' ? message : '';
    } else if (event.kind === 'MessageEvent' && event.source === 'agent') {
      answer = event.llm_message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
    }
  }
  return answer;
}
