import type { ContentPart, LLMConvertibleEvent } from '@x/events';

/**
 * One event as text for the summarizing LLM. The reference uses Python's `str(event)`; this is our own
 * rendering with the same role: what happened, by whom, with the full text (truncated by the caller).
 */
export function eventSummaryText(event: LLMConvertibleEvent): string {
  const header = `${event.kind} (${event.source})`;
  switch (event.kind) {
    case 'SystemPromptEvent':
      return `${header}\n${event.system_prompt.text}`;
    case 'MessageEvent':
      return `${header} ${event.llm_message.role}:\n${partsText([...event.llm_message.content, ...event.extended_content])}`;
    case 'ActionEvent': {
      const thought = partsText(event.thought);
      const lines = [header];
      if (thought !== '') lines.push(`Thought: ${thought}`);
      lines.push(`Tool: ${event.tool_name}`, `Arguments: ${event.tool_call.arguments}`);
      return lines.join('\n');
    }
    case 'ObservationEvent': {
      const status = event.observation.is_error ? ' (error)' : '';
      const content = partsText([...event.observation.content, ...event.extended_content]);
      return `${header}\nTool: ${event.tool_name}${status}\nResult: ${content}`;
    }
    case 'UserRejectObservation':
      return `${header}\nTool: ${event.tool_name}\nRejected: ${event.rejection_reason}`;
    case 'AgentErrorEvent':
      return `${header}\nTool: ${event.tool_name}\nError: ${event.error}`;
    case 'CondensationSummaryEvent':
      return `${header} earlier summary:\n${event.summary}`;
  }
}

function partsText(parts: readonly ContentPart[]): string {
  return parts.map((part) => (part.type === 'text' ? part.text : '[image]')).join('\n');
}

/** Cuts the middle out of `text` so it is at most `limit` characters, marking the cut. */
export function truncateMiddle(text: string, limit: number | undefined): string {
  if (limit === undefined || text.length <= limit) return text;
  const notice = `\n[... ${text.length - limit} characters omitted ...]\n`;
  if (notice.length >= limit) return text.slice(0, limit);
  const available = limit - notice.length;
  const head = Math.ceil(available / 2);
  return text.slice(0, head) + notice + text.slice(text.length - (available - head));
}
