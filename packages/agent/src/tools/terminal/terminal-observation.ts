import { type ContentPart, OBSERVATION_ERROR_HEADER, type Observation, registerObservationKind } from '@x/events';
import { z } from 'zod';
import { maybeTruncate } from './truncate.js';

/** The reference's `MAX_CMD_OUTPUT_SIZE`. */
export const maxCommandOutputSize = 30_000;

/** The reference's `CmdOutputMetadata`: what its PS1 prompt reports after a command. */
export interface CommandMetadata {
  exit_code: number;
  pid: number;
  username?: string;
  hostname?: string;
  working_dir?: string;
  py_interpreter_path?: string;
  prefix: string;
  suffix: string;
}

/** The fields of a `TerminalObservation` after `content`/`is_error`, in the reference's order. */
export interface TerminalObservationFields {
  command: string;
  /** -1 while the command is still running (soft timeout); absent for errors before any command ran. */
  exit_code?: number;
  timeout: boolean;
  metadata: CommandMetadata;
}

export function defaultMetadata(): CommandMetadata {
  return { exit_code: -1, pid: -1, prefix: '', suffix: '' };
}

/**
 * What the reader accepts: the reference's fields, and the `timed_out` older x versions wrote (kept loose so
 * those conversations still load).
 */
const terminalObservationReadSchema = z.looseObject({
  command: z.string().nullish(),
  exit_code: z.number().nullish(),
  timeout: z.boolean().optional(),
  metadata: z
    .looseObject({
      exit_code: z.number().optional(),
      working_dir: z.string().nullish(),
      py_interpreter_path: z.string().nullish(),
      prefix: z.string().optional(),
      suffix: z.string().optional(),
    })
    .optional(),
  full_output_save_dir: z.string().nullish(),
  timed_out: z.boolean().optional(),
});

function text(value: string): ContentPart {
  return { cache_prompt: false, type: 'text', text: value };
}

/**
 * The reference's `TerminalObservation.to_llm_content`: prefix + output + suffix, then the working directory,
 * the Python interpreter and the exit code lines, truncated as a whole; the error header first for errors.
 * Observations without `metadata` (written by older x versions) keep their content as it is.
 */
export function terminalLlmContent(observation: Observation): ContentPart[] {
  const metadata = (observation as { metadata?: Partial<CommandMetadata> }).metadata;
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
  return [...header, text(maybeTruncate(result, maxCommandOutputSize))];
}

let registered = false;

/** Teaches the event reader the terminal observation's LLM text (idempotent). */
export function registerTerminalObservation(): void {
  if (registered) return;
  registered = true;
  registerObservationKind('TerminalObservation', terminalObservationReadSchema, { toLlmContent: terminalLlmContent });
}
