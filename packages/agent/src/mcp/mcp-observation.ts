import type { Observation } from '@x/events';
import type { ToolContent } from '../tools/tool.js';
import { textContent } from '../tools/tool.js';

/** The reference's MCPToolObservation kind. */
export const MCP_OBSERVATION_KIND = 'MCPToolObservation';

/**
 * An MCP `CallToolResult` as the reference records it: a first part `[Tool '<name>' executed.]`, then text parts
 * and images (as `data:` URLs); other block types (audio, resources) are dropped, as the reference does.
 */
export function observationFromCallResult(toolName: string, result: unknown): Observation {
  if (typeof result !== 'object' || result === null || !Array.isArray((result as { content?: unknown }).content)) {
    return errorObservation(toolName, `MCP tool '${toolName}' returned a malformed result (no content list)`);
  }
  const { content: blocks, isError } = result as { content: unknown[]; isError?: unknown };
  const content: ToolContent[] = [textContent(`[Tool '${toolName}' executed.]`)];
  for (const block of blocks) {
    if (typeof block !== 'object' || block === null) continue;
    const part = block as Record<string, unknown>;
    if (part.type === 'text' && typeof part.text === 'string') content.push(textContent(part.text));
    if (part.type === 'image' && typeof part.data === 'string' && typeof part.mimeType === 'string') {
      content.push({ cache_prompt: false, type: 'image', image_urls: [`data:${part.mimeType};base64,${part.data}`] });
    }
  }
  return { content, is_error: isError === true, tool_name: toolName, kind: MCP_OBSERVATION_KIND };
}

/** A failed call (server missing, crashed, timed out, invalid arguments) as an error observation. */
export function errorObservation(toolName: string, message: string): Observation {
  return { content: [textContent(message)], is_error: true, tool_name: toolName, kind: MCP_OBSERVATION_KIND };
}
