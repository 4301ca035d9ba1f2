import { hostname, userInfo } from 'node:os';
import { maybeTruncate } from '@x/events';
import { hideValueEndAtStart, hideValueStartAtEnd } from '../../secrets/internal/cut-edges.js';
import { maskSecrets, secretPlaceholder } from '../secrets.js';
import type { ToolContext } from '../tool.js';
import { ansiCQuote, type CollectedOutput, type CommandReport, type ShellSession } from './shell-session.js';
import { isControlKey, terminalInput } from './terminal-keys.js';
import { type CommandMetadata, defaultMetadata, type TerminalObservationFields } from './terminal-observation.js';
import {
  continuePrefix,
  noPreviousToInteract,
  noPreviousToRead,
  notExecutedSuffix,
  pythonFloat,
  timeoutMessage,
} from './terminal-texts.js';

/** The state of one conversation's terminal: its shell and what the last observation already showed. */
export interface TerminalState {
  session: ShellSession;
  /** The running command's previous observation showed output (the next one starts with `continuePrefix`). */
  shownPartialOutput: boolean;
  workingDir: string;
}

export interface TerminalRunSettings {
  noChangeTimeoutSeconds: number;
  maxOutputChars: number;
  /** Longest wait without an action `timeout`, even while output keeps coming. */
  maxWaitSeconds: number;
}

export interface TerminalActionInput {
  command: string;
  is_input: boolean;
  timeout?: number | null | undefined;
}

export interface TerminalOutcome extends TerminalObservationFields {
  text: string;
  is_error: boolean;
  /** The session was killed (abort) and must be dropped. */
  killed?: boolean;
}

let cachedIdentity: { readonly username: string | undefined; readonly hostname: string } | undefined;

/** The user and host a command's metadata names: read on the first command, not at import (a passwd lookup). */
function identity(): { readonly username: string | undefined; readonly hostname: string } {
  if (cachedIdentity !== undefined) return cachedIdentity;
  let username: string | undefined;
  try {
    username = userInfo().username;
  } catch {
    username = undefined;
  }
  cachedIdentity = { username, hostname: hostname().split('.')[0] ?? '' };
  return cachedIdentity;
}

function outputText(output: CollectedOutput, secrets: readonly string[], limit: number): string {
  // Mask each kept end on its own: a secret is never reassembled across the cut. A secret the cut split leaves a
  // piece at the head's end and at the tail's start, which no whole-value match finds: those pieces are hidden too.
  const masked =
    output.dropped === 0
      ? maskSecrets(output.head + output.tail, secrets)
      : hideValueStartAtEnd(maskSecrets(output.head, secrets), secrets, secretPlaceholder) +
        hideValueEndAtStart(maskSecrets(output.tail, secrets), secrets, secretPlaceholder);
  return maybeTruncate(masked.trim(), limit);
}

function completedMetadata(report: CommandReport, suffix: string): CommandMetadata {
  const who = identity();
  return {
    exit_code: report.exitCode,
    pid: report.pid,
    ...(who.username === undefined ? {} : { username: who.username }),
    hostname: who.hostname,
    working_dir: report.workingDir,
    py_interpreter_path: report.pythonPath,
    prefix: '',
    suffix,
  };
}

function errorOutcome(command: string, text: string): TerminalOutcome {
  return { text, is_error: true, command, timeout: false, metadata: defaultMetadata() };
}

/** Exports the secrets a command mentions into the session first, as the reference does (output discarded). */
async function exportSecrets(state: TerminalState, env: Readonly<Record<string, string>>): Promise<void> {
  const names = Object.keys(env).filter((name) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name));
  if (names.length === 0) return;
  state.session.send(names.map((name) => `export ${name}=${ansiCQuote(env[name]!)}`).join(' && '));
  await state.session.wait({});
  state.session.takeOutput();
  state.session.takeReport();
}

/**
 * One terminal action in a live session, following the reference's `TerminalSession.execute`: a new command,
 * input to the running one (`is_input`), or an empty command to read more of its output.
 */
export async function runTerminalAction(
  state: TerminalState,
  action: TerminalActionInput,
  context: ToolContext,
  settings: TerminalRunSettings,
): Promise<TerminalOutcome> {
  const { session } = state;
  const command = action.command.trim();
  const secrets = context.secretValues ?? [];
  const running = session.running;
  if (!running && command === '') return errorOutcome(command, noPreviousToRead);
  if (!running && action.is_input) return errorOutcome(command, noPreviousToInteract);
  const prefix = () => (running && state.shownPartialOutput ? continuePrefix : '');

  if (running && !action.is_input && command !== '') {
    const text = outputText(session.takeOutput(), secrets, settings.maxOutputChars);
    const metadata = { ...defaultMetadata(), prefix: prefix(), suffix: notExecutedSuffix(command) };
    state.shownPartialOutput ||= text !== '';
    return { text, is_error: true, command, exit_code: -1, timeout: false, metadata };
  }

  if (!running) {
    await exportSecrets(state, context.env ?? {});
    state.shownPartialOutput = false;
    session.send(command);
  } else if (command !== '') {
    const input = terminalInput(action.command);
    if (input.kind === 'signal') session.signal(input.signal);
    else session.write(input.data);
  }

  // A command that never stops printing would hold the reference's loop forever: without an action `timeout`,
  // it returns after `maxWaitSeconds` like a hard timeout (the command keeps running).
  const timeout = action.timeout ?? undefined;
  const waitSeconds = timeout ?? settings.maxWaitSeconds;
  const outcome = await session.wait({
    timeoutMs: waitSeconds * 1000,
    ...(timeout === undefined ? { noChangeMs: settings.noChangeTimeoutSeconds * 1000 } : {}),
    ...(context.signal === undefined ? {} : { signal: context.signal }),
  });
  const continuing = prefix();
  const text = outputText(session.takeOutput(), secrets, settings.maxOutputChars);

  switch (outcome) {
    case 'completed': {
      const report = session.takeReport()!;
      state.workingDir = report.workingDir;
      const suffix =
        action.is_input && isControlKey(command)
          ? `\n[The command completed with exit code ${report.exitCode}. CTRL+${command.at(-1)!.toUpperCase()} was sent.]`
          : `\n[The command completed with exit code ${report.exitCode}.]`;
      const metadata = completedMetadata(report, suffix);
      return { text, is_error: false, command, exit_code: report.exitCode, timeout: false, metadata };
    }
    case 'hard_timeout':
    case 'no_change_timeout': {
      state.shownPartialOutput ||= text !== '';
      const suffix =
        outcome === 'hard_timeout'
          ? `\n[The command timed out after ${pythonFloat(waitSeconds)} seconds. ${timeoutMessage}]`
          : `\n[The command has no new output after ${settings.noChangeTimeoutSeconds} seconds. ${timeoutMessage}]`;
      const metadata = { ...defaultMetadata(), prefix: continuing, suffix };
      return { text, is_error: false, command, exit_code: -1, timeout: true, metadata };
    }
    case 'aborted': {
      session.close();
      const suffix =
        '\n[The command was interrupted: the terminal session and every process it started were killed. ' +
        'The next command starts a new session.]';
      const metadata = { ...defaultMetadata(), prefix: continuing, suffix, working_dir: state.workingDir };
      return { text, is_error: true, command, exit_code: -1, timeout: false, metadata, killed: true };
    }
    case 'exited': {
      const code = session.exitCode ?? -1;
      const suffix = `\n[The shell exited with code ${code}. The next command starts a new terminal session.]`;
      const metadata = { ...defaultMetadata(), exit_code: code, prefix: continuing, suffix };
      return { text, is_error: false, command, exit_code: code, timeout: false, metadata, killed: true };
    }
  }
}
