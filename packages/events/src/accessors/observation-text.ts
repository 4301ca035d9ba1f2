import type { Observation } from '../schemas/common.js';
import type { ContentPart } from '../schemas/content.js';

/** The texts of the text parts, concatenated without a separator (the reference's `text`, §4.2). */
export function contentText(content: readonly ContentPart[]): string {
  let out = '';
  for (const part of content) if (part.type === 'text') out += part.text;
  return out;
}

/** An observation's text: its text content parts concatenated (reference §4.2). */
export function observationText(observation: Observation): string {
  return contentText(observation.content);
}
