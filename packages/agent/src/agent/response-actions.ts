import {
  type ActionEvent,
  AGENT_ACTION_CLASSIFICATION,
  type AgentErrorEvent,
  type CreateEventInput,
  createEvent,
  type TextContent,
} from '@x/events';
import type { LLMResponse } from '../llm/llm.js';
import { parseToolCall } from '../tools/parse-tool-call.js';
import type { Tool } from '../tools/tool.js';

/**
 * The events for one LLM response with tool calls (reference §9.2/9.3), in emission order: an
 * ActionEvent per call (thought and reasoning on the first only), and right after an invalid call's
 * ActionEvent (which has no `action`) its AgentErrorEvent. All share the response id.
 */
export function actionsFromResponse(
  response: LLMResponse,
  tools: readonly Tool[],
  securityAnalyzerEnabled: boolean,
): (ActionEvent | AgentErrorEvent)[] {
  const message = response.message;
  const calls = message.tool_calls ?? [];
  const events: (ActionEvent | AgentErrorEvent)[] = [];
  for (let index = 0; index < calls.length; index++) {
    const call = calls[index] as (typeof calls)[number];
    const parsed = parseToolCall(call, tools, { securityAnalyzerEnabled });
    // Fields in the order the spreads used to give them (the schema's output orders them anyway).
    const turn: Record<string, unknown> = {
      thought: index === 0 ? message.content.filter((part): part is TextContent => part.type === 'text') : [],
    };
    if (index === 0 && message.reasoning_content !== undefined) turn.reasoning_content = message.reasoning_content;
    turn.thinking_blocks = index === 0 ? message.thinking_blocks : [];
    if (index === 0 && message.responses_reasoning_item !== undefined) {
      turn.responses_reasoning_item = message.responses_reasoning_item;
    }
    turn.tool_call_id = call.id;
    turn.llm_response_id = response.id;
    if (parsed.ok) {
      turn.action = parsed.action;
      turn.tool_name = parsed.tool.name;
      turn.tool_call = parsed.normalizedCall;
      turn.security_risk = parsed.securityRisk;
      turn.summary = parsed.summary;
      events.push(createEvent('ActionEvent', turn as CreateEventInput<'ActionEvent'>));
      continue;
    }
    turn.tool_name = call.name;
    turn.tool_call = parsed.actionToolCall;
    events.push(createEvent('ActionEvent', turn as CreateEventInput<'ActionEvent'>));
    events.push(
      createEvent('AgentErrorEvent', {
        tool_name: parsed.errorToolName,
        tool_call_id: call.id,
        error: parsed.error,
        classification: AGENT_ACTION_CLASSIFICATION,
      }),
    );
  }
  return events;
}
