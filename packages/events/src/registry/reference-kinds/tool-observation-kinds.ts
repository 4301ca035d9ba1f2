import { z } from 'zod';
import { OBSERVATION_ERROR_HEADER } from '../../convert/observation-error-header.js';
import type { Observation } from '../../schemas/common.js';
import type { ContentPart } from '../../schemas/content.js';
import { maybeTruncatePersisted } from './maybe-truncate.js';
import { pythonPosixJoin } from './python-text.js';
import { sha256Hex } from './sha256-hex.js';

/**
 * The observations of reference tools whose `to_llm_content` is not the default one (error header, then `content`):
 * the browser tools' `BrowserObservation`, the sub-agent `TaskObservation` and the ToM tools' two observations. They
 * are registered in every registry so a conversation the reference wrote renders, and continues, as the reference
 * sent it to the model, whichever tools this process has. Loose: other fields are kept.
 */

function text(value: string): ContentPart {
  return { cache_prompt: false, type: 'text', text: value };
}

function joinedText(observation: Observation): string {
  return observation.content
    .filter((part) => part.type === 'text')
    .map((part) => (part as { text: string }).text)
    .join('');
}

/** The reference's `DEFAULT_TEXT_CONTENT_LIMIT`. */
const textContentLimit = 50_000;

export const browserObservationReadSchema = z.looseObject({
  screenshot_data: z.string().nullish(),
  full_output_save_dir: z.string().nullish(),
});

/** The reference's `detect_image_mime_type`: by the base64 prefix, PNG when unknown. */
function screenshotMimeType(base64: string): string {
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('iVBORw0KGgo')) return 'image/png';
  if (base64.startsWith('R0lGODlh')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return 'image/png';
}

/**
 * Whether Python's `base64.b64decode(data)` accepts the data, as CPython's lenient `a2b_base64` reads it: a string
 * that is not ASCII is refused whole; characters outside the alphabet are skipped; a `=` counts once two characters
 * of a quad are in (a data character starts the count again), and completing the quad's padding ends the input;
 * otherwise the data must not stop inside a quad. The reference names the saved screenshot only when it could decode
 * (and save) it.
 */
function decodableBase64(data: string): boolean {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the ASCII range is the point
  if (/[^\x00-\x7f]/.test(data)) return false;
  let quadPosition = 0;
  let pads = 0;
  for (let index = 0; index < data.length; index++) {
    if (data[index] === '=') {
      if (quadPosition >= 2 && quadPosition + ++pads >= 4) return true;
      continue;
    }
    if (!base64Alphabet.test(data[index] as string)) continue;
    pads = 0;
    quadPosition = (quadPosition + 1) % 4;
  }
  return quadPosition === 0;
}

const base64Alphabet = /^[A-Za-z0-9+/]$/;

/**
 * `BrowserObservation.to_llm_content`: the error header, the text (joined, truncated at 50,000 characters with the
 * saved-output notice when there is a save directory; images in `content` are not sent), then the screenshot: the
 * path the reference saved it to (when it had a directory) and the image as a `data:` URL.
 */
export function browserLlmContent(observation: Observation): ContentPart[] {
  const { screenshot_data: screenshot, full_output_save_dir: saveDir } = observation as z.infer<
    typeof browserObservationReadSchema
  > &
    Observation;
  const parts: ContentPart[] = observation.is_error ? [text(OBSERVATION_ERROR_HEADER)] : [];
  const content = joinedText(observation);
  if (content !== '') {
    parts.push(text(maybeTruncatePersisted(content, { limit: textContentLimit, saveDir, toolPrefix: 'browser' })));
  }
  if (screenshot) {
    const mimeType = screenshotMimeType(screenshot);
    if (saveDir && decodableBase64(screenshot)) {
      const extension = mimeType === 'image/jpeg' ? 'jpg' : (mimeType.split('/')[1] as string);
      const name = `browser_screenshot_${sha256Hex(screenshot).slice(0, 8)}.${extension}`;
      parts.push(text(`Screenshot saved to: ${pythonPosixJoin(saveDir, name)}`));
    }
    parts.push({ cache_prompt: false, type: 'image', image_urls: [`data:${mimeType};base64,${screenshot}`] });
  }
  return parts;
}

export const taskObservationReadSchema = z.looseObject({
  task_id: z.string(),
  subagent: z.string(),
  status: z.string(),
});

/** `TaskObservation.to_llm_content`: the task's id, sub-agent and status first, then the error header and content. */
export function taskLlmContent(observation: Observation): ContentPart[] {
  const task = observation as z.infer<typeof taskObservationReadSchema> & Observation;
  return [
    text(`Task ID: ${task.task_id}\nSubagent: ${task.subagent}\nStatus: ${task.status}`),
    ...(observation.is_error ? [text(OBSERVATION_ERROR_HEADER)] : []),
    ...observation.content,
  ];
}

export const consultTomObservationReadSchema = z.looseObject({
  suggestions: z.string().optional(),
  confidence: z.number().nullish(),
  reasoning: z.string().nullish(),
});

/** Python's `f"{value:.0%}"`: the value times 100, rounded half to even, then `%`. */
export function pythonPercent(value: number): string {
  if (Number.isNaN(value)) return 'nan%';
  if (!Number.isFinite(value)) return value > 0 ? 'inf%' : '-inf%';
  const scaled = value * 100;
  const floor = Math.floor(scaled);
  const rounded = scaled - floor === 0.5 ? (floor % 2 === 0 ? floor : floor + 1) : Math.round(scaled);
  const sign = rounded === 0 && (scaled < 0 || Object.is(scaled, -0)) ? '-' : '';
  return `${sign}${Math.abs(rounded) === 0 ? 0 : rounded}%`;
}

/** `ConsultTomObservation.to_llm_content`: the guidance, reasoning and confidence (content and is_error unused). */
export function consultTomLlmContent(observation: Observation): ContentPart[] {
  const tom = observation as z.infer<typeof consultTomObservationReadSchema> & Observation;
  if (!tom.suggestions) return [text('Tom agent did not provide suggestions.')];
  const lines = [`Tom agent's guidance:\n${tom.suggestions}`];
  if (tom.reasoning) lines.push(`\nReasoning: ${tom.reasoning}`);
  if (tom.confidence !== undefined && tom.confidence !== null)
    lines.push(`\nConfidence: ${pythonPercent(tom.confidence)}`);
  return [text(lines.join('\n'))];
}

export const sleeptimeComputeObservationReadSchema = z.looseObject({
  message: z.string().optional(),
  sessions_processed: z.number().int().optional(),
});

/** `SleeptimeComputeObservation.to_llm_content`. */
export function sleeptimeComputeLlmContent(observation: Observation): ContentPart[] {
  const sleeptime = observation as z.infer<typeof sleeptimeComputeObservationReadSchema> & Observation;
  const message = sleeptime.message ?? '';
  const sessions = sleeptime.sessions_processed ?? 0;
  return [
    text(
      sessions > 0
        ? `Successfully indexed ${sessions} conversation(s) for user modeling.\n${message}`
        : `Sleeptime compute completed.\n${message}`,
    ),
  ];
}

/** Kind → schema and rendering, registered in every event registry. */
export const renderedToolObservationKinds = Object.freeze({
  BrowserObservation: { schema: browserObservationReadSchema, toLlmContent: browserLlmContent },
  TaskObservation: { schema: taskObservationReadSchema, toLlmContent: taskLlmContent },
  ConsultTomObservation: { schema: consultTomObservationReadSchema, toLlmContent: consultTomLlmContent },
  SleeptimeComputeObservation: {
    schema: sleeptimeComputeObservationReadSchema,
    toLlmContent: sleeptimeComputeLlmContent,
  },
});
