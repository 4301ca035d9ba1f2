import {
  type ActionEvent,
  AGENT_ACTION_CLASSIFICATION,
  type AgentErrorEvent,
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
  const thought = message.content.filter((part): part is TextContent => part.type === 'text');
  const events: (ActionEvent | AgentErrorEvent)[] = [];
  (message.tool_calls ?? []).forEach((call, index) => {
    const first = index === 0;
    const turn = {
      thought: first ? thought : [],
      ...(first && message.reasoning_content !== undefined ? { reasoning_content: message.reasoning_content } : {}),
      thinking_blocks: first ? message.thinking_blocks : [],
      ...(first && message.responses_reasoning_item !== undefined
        ? { responses_reasoning_item: message.responses_reasoning_item }
        : {}),
      tool_call_id: call.id,
      llm_response_id: response.id,
    };
    const parsed = parseToolCall(call, tools, { securityAnalyzerEnabled });
    if (parsed.ok) {
      events.push(
        createEvent('ActionEvent', {
          ...turn,
          action: parsed.action,
          tool_name: parsed.tool.name,
          tool_call: parsed.normalizedCall,
          security_risk: parsed.securityRisk,
          summary: parsed.summary,
        }),
      );
      return;
    }
    events.push(createEvent('ActionEvent', { ...turn, tool_name: call.name, tool_call: parsed.actionToolCall }));
    events.push(
      createEvent('AgentErrorEvent', {
        tool_name: parsed.errorToolName,
        tool_call_id: call.id,
        error: parsed.error,
        classification: AGENT_ACTION_CLASSIFICATION,
      }),
    );
  });
  return events;
}
