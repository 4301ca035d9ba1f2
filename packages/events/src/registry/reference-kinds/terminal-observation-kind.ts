import { z } from 'zod';
import { OBSERVATION_ERROR_HEADER } from '../../convert/observation-error-header.js';
import type { Observation } from '../../schemas/common.js';
import type { ContentPart } from '../../schemas/content.js';
import { maybeTruncatePersisted } from './maybe-truncate.js';

/** The reference's `MAX_CMD_OUTPUT_SIZE`. */
export const maxCommandOutputSize = 30_000;

/**
 * What the reader accepts of a `TerminalObservation`: the reference's fields, and the `timed_out` older x
 * versions wrote (kept loose so those conversations still load).
 */
export const terminalObservationReadSchema = z.looseObject({
  command: z.string().nullish(),
  exit_code: z.number().nullish(),
  timeout: z.boolean().optional(),
  metadata: z
    // The reference's field order (CmdOutputMetadata), so an event written again keeps its bytes.
    .looseObject({
      exit_code: z.number().optional(),
      pid: z.number().optional(),
      username: z.string().nullish(),
      hostname: z.string().nullish(),
      working_dir: z.string().nullish(),
      py_interpreter_path: z.string().nullish(),
      prefix: z.string().optional(),
      suffix: z.string().optional(),
    })
    .optional(),
  full_output_save_dir: z.string().nullish(),
  timed_out: z.boolean().optional(),
});

interface TerminalMetadata {
  exit_code?: number;
  working_dir?: string | null;
  py_interpreter_path?: string | null;
  prefix?: string;
  suffix?: string;
}

function text(value: string): ContentPart {
  return { cache_prompt: false, type: 'text', text: value };
}

/**
 * The reference's `TerminalObservation.to_llm_content`: prefix + output + suffix, then the working directory,
 * the Python interpreter and the exit code lines, truncated as a whole (naming the file the reference saved the full
 * output in, when the observation has a `full_output_save_dir`); the error header first for errors.
 * Observations without `metadata` (written by older x versions) keep their content as it is. Registered in every
 * event registry, so every reader of a conversation (`x messages`, the server, a resume without a terminal
 * tool) renders what the agent sent the model.
 */
export function terminalLlmContent(observation: Observation): ContentPart[] {
  const metadata = (observation as { metadata?: TerminalMetadata }).metadata;
  const header = observation.is_error ? [text(OBSERVATION_ERROR_HEADER)] : [];
  if (metadata === undefined) return [...header, ...observation.content];
  const output = observation.content
    .filter((part) => part.type === 'text')
    .map((part) => (part as { text: string }).text)
    .join('');
  let result = `${metadata.prefix ?? ''}${output}${metadata.suffix ?? ''}`;
  if (metadata.working_dir) result += `\n[Current working directory: ${metadata.working_dir}]`;
  if (metadata.py_interpreter_path) result += `\n[Python interpreter: ${metadata.py_interpreter_path}]`;
  if ((metadata.exit_code ?? -1) !== -1) result += `\n[Command finished with exit code ${metadata.exit_code}]`;
  const saveDir = (observation as { full_output_save_dir?: string | null }).full_output_save_dir;
  return [
    ...header,
    text(maybeTruncatePersisted(result, { limit: maxCommandOutputSize, saveDir, toolPrefix: 'terminal' })),
  ];
}
