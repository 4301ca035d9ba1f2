import type { AnyEvent } from '../schemas/events.js';
import { contentText, observationText } from './observation-text.js';

/**
 * The human-readable text of an event, or `''` when it has none: a message's text (content, then
 * extended content), an action's thought, an observation's text, a rejection reason, an error's
 * text, a summary, a system prompt, a streaming delta. Text parts are concatenated without a
 * separator, as the reference's `text` accessors do.
 */
export function getEventText(event: AnyEvent): string {
  switch (event.kind) {
    case 'MessageEvent':
      return contentText(event.llm_message.content) + contentText(event.extended_content);
    case 'ActionEvent':
      return contentText(event.thought);
    case 'ObservationEvent':
      return observationText(event.observation) + contentText(event.extended_content);
    case 'UserRejectObservation':
      return event.rejection_reason;
    case 'AgentErrorEvent':
      return event.error;
    case 'ConversationErrorEvent':
    case 'ServerErrorEvent':
      return event.detail;
    case 'CondensationSummaryEvent':
      return event.summary;
    case 'Condensation':
      return event.summary ?? '';
    case 'SystemPromptEvent':
      return event.system_prompt.text + (event.dynamic_context === undefined ? '' : `\n${event.dynamic_context.text}`);
    case 'StreamingDeltaEvent':
      return event.content ?? '';
    default:
      return '';
  }
}

/**
 * The model's reasoning in an event: `reasoning_content` followed by the text of its thinking blocks
 * (redacted blocks have none), joined by newlines; `''` when there is none. Anthropic responses carry the same
 * thinking twice (as `reasoning_content` and as thinking blocks, as LiteLLM and our client store them): a block
 * whose text `reasoning_content` already holds is not repeated.
 */
export function getEventThinking(event: AnyEvent): string {
  let reasoning: string | undefined;
  let blocks: readonly { type: string; thinking?: string }[] = [];
  if (event.kind === 'MessageEvent') {
    reasoning = event.llm_message.reasoning_content;
    blocks = event.llm_message.thinking_blocks;
  } else if (event.kind === 'ActionEvent') {
    reasoning = event.reasoning_content;
    blocks = event.thinking_blocks;
  } else if (event.kind === 'StreamingDeltaEvent') {
    reasoning = event.reasoning_content;
  }
  const said = reasoning ?? '';
  const fresh = blocks.map((block) => block.thinking ?? '').filter((text) => text !== '' && !said.includes(text));
  return [said, ...fresh].filter((part) => part !== '').join('\n');
}
