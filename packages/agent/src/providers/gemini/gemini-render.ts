import type { ContentPart, Message } from '@x/events';
import { argumentsObject } from '../internal/finish-response.js';

/** A Gemini `Part` as sent and received (the subset x uses). */
export interface GeminiPart {
  text?: string;
  thought?: boolean;
  thoughtSignature?: string;
  inlineData?: { mimeType: string; data: string };
  fileData?: { fileUri: string; mimeType?: string };
  functionCall?: { id?: string; name?: string; args?: Record<string, unknown> };
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> };
}

export interface GeminiContent {
  role: 'user' | 'model';
  parts: GeminiPart[];
}

export interface GeminiRendered {
  systemInstruction?: { parts: { text: string }[] };
  contents: GeminiContent[];
}

/**
 * Gemini's thought signatures belong to a function-call part and must come back with it. The event
 * model has no field for them, so (as LiteLLM, the reference's client, does) the signature travels
 * inside the tool-call id: `<id>__thought__<signature>`. Ids x made up (Gemini's API often gives
 * none) start with `gcall_` and are not sent back as ids.
 */
export const thoughtSeparator = '__thought__';
export const generatedIdPrefix = 'gcall_';

export function encodeCallId(id: string, signature: string | undefined): string {
  return signature ? `${id}${thoughtSeparator}${signature}` : id;
}

export function decodeCallId(id: string): { id: string | undefined; signature: string | undefined } {
  const at = id.indexOf(thoughtSeparator);
  const base = at === -1 ? id : id.slice(0, at);
  const signature = at === -1 ? undefined : id.slice(at + thoughtSeparator.length);
  return { id: base.startsWith(generatedIdPrefix) || base === '' ? undefined : base, signature };
}

const dataUrlPattern = /^data:([^;,]+);base64,(.*)$/s;

function contentParts(content: readonly ContentPart[], vision: boolean): GeminiPart[] {
  const parts: GeminiPart[] = [];
  for (const part of content) {
    if (part.type === 'text') {
      if (part.text !== '') parts.push({ text: part.text });
    } else if (vision) {
      for (const url of part.image_urls) {
        const match = dataUrlPattern.exec(url);
        parts.push(
          match
            ? { inlineData: { mimeType: match[1] as string, data: match[2] as string } }
            : { fileData: { fileUri: url } },
        );
      }
    }
  }
  return parts;
}

function toolOutput(message: Message): Record<string, unknown> {
  const text = message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('\n');
  return { output: text };
}

/**
 * Renders messages for the Gemini API: system texts → `systemInstruction`; user → a `user` turn;
 * assistant → a `model` turn with its text and one `functionCall` per tool call (arguments parsed,
 * thought signature restored); tool results → `functionResponse` parts of a `user` turn (images of a
 * result follow as inline parts). Consecutive turns of one role are merged, as Gemini requires
 * (the results of parallel calls share one turn).
 */
export function toGeminiContents(messages: readonly Message[], options: { vision: boolean }): GeminiRendered {
  const system: { text: string }[] = [];
  const contents: GeminiContent[] = [];
  const push = (role: GeminiContent['role'], parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        for (const part of message.content)
          if (part.type === 'text' && part.text !== '') system.push({ text: part.text });
        break;
      case 'user':
        push('user', contentParts(message.content, options.vision));
        break;
      case 'assistant': {
        const parts = contentParts(message.content, false);
        for (const call of message.tool_calls ?? []) {
          const { id, signature } = decodeCallId(call.id);
          parts.push({
            functionCall: { ...(id && { id }), name: call.name, args: argumentsObject(call.arguments) },
            ...(signature && { thoughtSignature: signature }),
          });
        }
        push('model', parts);
        break;
      }
      case 'tool': {
        const { id } = decodeCallId(message.tool_call_id ?? '');
        const parts: GeminiPart[] = [
          { functionResponse: { ...(id && { id }), name: message.name ?? '', response: toolOutput(message) } },
        ];
        for (const part of contentParts(message.content, options.vision)) if (part.text === undefined) parts.push(part);
        push('user', parts);
        break;
      }
    }
  }
  return { ...(system.length > 0 && { systemInstruction: { parts: system } }), contents };
}
