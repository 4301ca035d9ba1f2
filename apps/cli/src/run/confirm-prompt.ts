import { createInterface } from 'node:readline';
import type { ActionEvent } from '@x/events';
import { eventSummary } from '../render/event-summary.js';
import type { Output } from '../render/output.js';

/**
 * Shows the actions waiting for confirmation and asks y/n on the terminal (or reads the answer from a
 * piped stdin). Resolves `undefined` when no answer can be had (end of input, Ctrl-C).
 */
export async function askConfirmation(output: Output, actions: readonly ActionEvent[]): Promise<boolean | undefined> {
  const c = output.errorColors;
  output.spinner.stop();
  const count = actions.length === 1 ? 'this action' : `these ${actions.length} actions`;
  output.error(c.bold(c.yellow(`The agent wants to run ${count}:`)));
  for (const action of actions) output.error(`  ${c.yellow('⚙')} ${eventSummary(action, 160)}`);
  for (;;) {
    const answer = await readAnswer(`${c.bold('Run it?')} ${c.dim('[y/n]')} `);
    if (answer === undefined) return undefined;
    const normalized = answer.trim().toLowerCase();
    if (normalized === 'y' || normalized === 'yes') return true;
    if (normalized === 'n' || normalized === 'no') return false;
    output.error(c.dim('Please answer y (run it) or n (reject it; the agent is told).'));
  }
}

/** What a person answers at the confirmation prompt of `x run`. */
export type PromptDecision =
  | { kind: 'approve' }
  | { kind: 'reject' }
  | { kind: 'deny'; reason: string }
  | { kind: 'edit'; arguments: Record<string, unknown> }
  | { kind: 'substitute'; result: string };

/**
 * Like `askConfirmation`, with the choices of per-action decisions: y (run), n (reject), d (deny with a reason the
 * agent sees), and for a single action e (run it with edited JSON arguments) and s (do not run it; the agent sees
 * the text you type as its result). Resolves `undefined` when no answer can be had.
 */
export async function askDecision(
  output: Output,
  actions: readonly ActionEvent[],
): Promise<PromptDecision | undefined> {
  const c = output.errorColors;
  output.spinner.stop();
  const single = actions.length === 1;
  const count = single ? 'this action' : `these ${actions.length} actions`;
  output.error(c.bold(c.yellow(`The agent wants to run ${count}:`)));
  for (const action of actions) output.error(`  ${c.yellow('⚙')} ${eventSummary(action, 160)}`);
  const choices = single ? 'y/n/d/e/s' : 'y/n/d';
  for (;;) {
    const answer = await readAnswer(`${c.bold('Run it?')} ${c.dim(`[${choices}]`)} `);
    if (answer === undefined) return undefined;
    const normalized = answer.trim().toLowerCase();
    if (normalized === 'y' || normalized === 'yes') return { kind: 'approve' };
    if (normalized === 'n' || normalized === 'no') return { kind: 'reject' };
    if (normalized === 'd') {
      const reason = (await readAnswer(`${c.bold('Reason (the agent sees it):')} `))?.trim();
      if (reason === undefined) return undefined;
      if (reason !== '') return { kind: 'deny', reason };
    } else if (single && normalized === 'e') {
      const text = await readAnswer(`${c.bold('Arguments (JSON object):')} `);
      if (text === undefined) return undefined;
      const parsed = parseObject(text);
      if (parsed !== undefined) return { kind: 'edit', arguments: parsed };
      output.error(c.dim('Not a JSON object.'));
      continue;
    } else if (single && normalized === 's') {
      const result = await readAnswer(`${c.bold('Result the agent sees instead:')} `);
      if (result === undefined) return undefined;
      return { kind: 'substitute', result };
    }
    output.error(
      c.dim(
        `Please answer y (run it), n (reject it), d (deny it with a reason)${single ? ', e (edit its arguments) or s (give its result yourself)' : ''}.`,
      ),
    );
  }
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

async function readAnswer(prompt: string): Promise<string | undefined> {
  if (process.stdin.isTTY === true) return readTerminalLine(prompt);
  process.stderr.write(prompt);
  piped ??= createPipedLines();
  const line = await piped.next();
  // Echo the piped answer, as a terminal would, so the transcript reads "Run it? [y/n] y".
  process.stderr.write(`${line ?? ''}\n`);
  return line;
}

/** On a terminal: one readline per question, so Ctrl-C keeps working between questions. */
function readTerminalLine(prompt: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true, prompt });
    let settled = false;
    const finish = (value: string | undefined): void => {
      if (settled) return;
      settled = true;
      rl.close();
      resolve(value);
    };
    rl.once('line', (line) => finish(line));
    rl.once('close', () => finish(undefined));
    rl.once('SIGINT', () => {
      process.stderr.write('\n');
      finish(undefined);
    });
    rl.prompt();
  });
}

/**
 * From a pipe (`yes | x run --confirm always …`): one reader for the whole run, because a reader
 * closed after one line would lose the lines it had already buffered.
 */
function createPipedLines(): { next(): Promise<string | undefined>; close(): void } {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let ended = false;
  rl.on('line', (line) => {
    const waiter = waiting.shift();
    if (waiter === undefined) lines.push(line);
    else waiter(line);
  });
  rl.on('close', () => {
    ended = true;
    for (const waiter of waiting.splice(0)) waiter(undefined);
  });
  return {
    next() {
      const line = lines.shift();
      if (line !== undefined || ended) return Promise.resolve(line);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => rl.close(),
  };
}

let piped: ReturnType<typeof createPipedLines> | undefined;

/** Stops reading answers from a pipe (so stdin does not keep the process alive). */
export function closeAnswers(): void {
  piped?.close();
  piped = undefined;
}
