import type { ImageContent, TextContent } from '@x/events';
import { clientText } from '../../internal/client-text.js';
import { imageUrlProblem } from '../../internal/image-url.js';
import { AgUiRunError } from './ag-ui-run-error.js';

/** A user message's content as the conversation records it: its text, and its images by URL. */
export type UserContent = Array<TextContent | ImageContent>;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function refuse(where: string, reason: string): AgUiRunError {
  return new AgUiRunError(
    'unsupported_content',
    `${where}: ${reason} (a user message may carry text, and images as data or by URL)`,
  );
}

/** `url` when a model can be sent it (`imageUrlProblem`), else the run input is refused naming the part. */
function checked(url: string, where: string): string {
  const problem = imageUrlProblem(url);
  if (problem !== undefined) throw refuse(where, problem);
  return url;
}

/** The URL of an AG-UI 1.0 image part's `source`: inline data as a `data:` URI, or its URL. */
function imageUrlOf(source: unknown, where: string): string {
  if (!isObject(source) || typeof source.value !== 'string' || source.value === '') {
    throw refuse(where, 'an image part without a source value');
  }
  if (source.type === 'url') return checked(source.value, where);
  if (source.type === 'data') {
    const mimeType = typeof source.mimeType === 'string' ? source.mimeType : '';
    if (!mimeType.startsWith('image/')) throw refuse(where, `inline image data of type '${clientText(mimeType)}'`);
    return checked(`data:${mimeType};base64,${source.value}`, where);
  }
  // A `file` source names bytes held by some model provider, which this server cannot fetch.
  throw refuse(where, `an image whose source is of type '${clientText(source.type)}'`);
}

/** A pre-1.0 `binary` part (older clients send them raw): an image by `data` or `url`, like a 1.0 image part. */
function legacyImageUrlOf(part: Record<string, unknown>, where: string): string {
  const mimeType = typeof part.mimeType === 'string' ? part.mimeType : '';
  if (!mimeType.startsWith('image/')) throw refuse(where, `binary content of type '${clientText(mimeType)}'`);
  if (typeof part.data === 'string' && part.data !== '') {
    return imageUrlOf({ type: 'data', value: part.data, mimeType }, where);
  }
  return imageUrlOf({ type: 'url', value: part.url }, where);
}

/**
 * The content of an AG-UI user message (a string, or 1.0 content parts) as the conversation takes it: text parts
 * as text, image parts as images (inline data as a `data:` URI, or the URL), in order; empty text is dropped. Audio,
 * video and documents, and images held by a model provider (`file` sources), have no counterpart in a conversation's
 * messages: they are refused (`unsupported_content`, naming the part) rather than dropped, so the model never
 * answers a message without what the user attached to it. `where` names the message (`messages[3]`).
 */
export function userMessageContent(content: unknown, where: string): UserContent {
  if (typeof content === 'string') return content === '' ? [] : [{ cache_prompt: false, type: 'text', text: content }];
  if (content === undefined || content === null) return [];
  if (!Array.isArray(content)) throw refuse(`${where}.content`, 'content that is neither a string nor parts');
  return content.flatMap((part, index): UserContent => {
    const at = `${where}.content[${index}]`;
    if (!isObject(part)) throw refuse(at, 'a part that is not an object');
    if (part.type === 'text') {
      const text = typeof part.text === 'string' ? part.text : '';
      return text === '' ? [] : [{ cache_prompt: false, type: 'text', text }];
    }
    if (part.type === 'image')
      return [{ cache_prompt: false, type: 'image', image_urls: [imageUrlOf(part.source, at)] }];
    if (part.type === 'binary') {
      return [{ cache_prompt: false, type: 'image', image_urls: [legacyImageUrlOf(part, at)] }];
    }
    throw refuse(at, `a part of type '${clientText(part.type)}'`);
  });
}
