import type { TextContent } from '../schemas/content.js';

/** A frozen text content part, as the reference writes it (`cache_prompt` false unless asked). */
export function text(value: string, options: { cachePrompt?: boolean } = {}): TextContent {
  return Object.freeze({ cache_prompt: options.cachePrompt ?? false, type: 'text', text: value });
}
