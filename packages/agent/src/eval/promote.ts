import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, relative, resolve } from 'node:path';
import { InvalidEvalSuiteError } from './errors/invalid-eval-suite-error.js';
import { evalRunFromEvents } from './eval-run.js';
import { type EvalCase, parseEvalSuite } from './eval-suite.js';
import { parseSuiteText } from './load-suite.js';
import { readRecordedConversation } from './recorded-conversation.js';
import type { ScorerConfig } from './scorers/scorer-config.js';
import { writeSuiteFile } from './write-suite-file.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The case a conversation becomes: replayed strictly, passing when it has no errors, makes the same tool calls
 * and gives the same final answer (unless `scorers` are given).
 */
export async function caseFromConversation(
  location: string,
  options: { suiteDirectory: string; id?: string | undefined; scorers?: ScorerConfig[] | undefined },
): Promise<EvalCase> {
  const recording = await readRecordedConversation(location);
  const run = await evalRunFromEvents(recording.events, { workspace: recording.workspace });
  const scorers: ScorerConfig[] = options.scorers ?? [
    { type: 'no-errors' },
    ...(run.toolCalls.length === 0
      ? []
      : [{ type: 'trajectory' as const, match: 'exact' as const, tools: run.toolCalls.map((call) => call.tool) }]),
    ...(run.finalAnswer === ''
      ? []
      : [{ type: 'final-answer' as const, pattern: `^${escapeRegExp(run.finalAnswer)}$` }]),
  ];
  const reference = relative(options.suiteDirectory, location) || '.';
  return {
    id: options.id ?? `conversation-${recording.id.replace(/-/g, '').slice(0, 8)}`,
    ...(run.task === '' ? {} : { description: run.task.split('\n')[0]!.slice(0, 120) }),
    conversation: reference.startsWith('.') ? reference : `./${reference}`,
    scorers,
  };
}

/**
 * Adds a recorded conversation to a suite file as a case (creating the file when it does not exist or holds only
 * whitespace, or only YAML comments), keeping the file's comments and layout when it is YAML. Refuses, with
 * `InvalidEvalSuiteError` and the file left as it was, an id the suite already has and a file that is not a suite.
 * The file is replaced whole (see `writeSuiteFile`): a crash never leaves half a suite.
 */
export async function promoteConversation(options: {
  /** The conversation directory. */
  location: string;
  suitePath: string;
  id?: string | undefined;
  scorers?: ScorerConfig[] | undefined;
}): Promise<EvalCase> {
  const suitePath = resolve(options.suitePath);
  const evalCase = await caseFromConversation(resolve(options.location), {
    suiteDirectory: dirname(suitePath),
    id: options.id,
    scorers: options.scorers,
  });
  const json = extname(suitePath) === '.json';
  // Loaded on first use, not with `@x/agent` (see parseSuiteText).
  const { isMap, isSeq, parseDocument, stringify } = await import('yaml');
  let current = '';
  if (existsSync(suitePath)) {
    try {
      current = await readFile(suitePath, 'utf8');
    } catch (cause) {
      throw new InvalidEvalSuiteError(
        { source: suitePath, problem: `cannot be read: ${(cause as Error).message}` },
        { cause },
      );
    }
  }
  let text: string;
  const newSuite = { name: basename(suitePath, extname(suitePath)), cases: [evalCase] };
  // A missing file and an empty one (nothing but whitespace) are the same: a suite with no case yet.
  if (current.trim() === '') {
    text = json ? `${JSON.stringify(newSuite, null, 2)}\n` : stringify(newSuite);
  } else {
    // `loadSuite` reads a `.json` file as JSON only: YAML in it is no suite, and must not be rewritten as one.
    if (json) await parseSuiteText(current, suitePath);
    const document = parseDocument(current);
    if (document.errors.length > 0) {
      throw new InvalidEvalSuiteError({
        source: suitePath,
        problem: `not valid YAML/JSON: ${document.errors[0]!.message}`,
      });
    }
    // Nothing but comments is an empty suite too (a header written before any case): the comments stay on top.
    if (document.contents === null) {
      document.contents = document.createNode({ ...newSuite, cases: [] }) as unknown as typeof document.contents;
    }
    const cases = isMap(document.contents) ? document.contents.get('cases') : undefined;
    if (!isSeq(cases)) throw new InvalidEvalSuiteError({ source: suitePath, field: 'cases', problem: 'is not a list' });
    const taken = (cases.toJSON() as { id?: unknown }[]).some((entry) => entry?.id === evalCase.id);
    if (taken) {
      throw new InvalidEvalSuiteError({
        source: suitePath,
        caseId: evalCase.id,
        field: 'id',
        problem: 'the suite already has a case with this id',
      });
    }
    (cases as { add(value: unknown): void }).add(document.createNode(evalCase));
    text = json ? `${JSON.stringify(document.toJSON(), null, 2)}\n` : document.toString();
  }
  // What is written must load: validate it as `loadSuite` will.
  parseEvalSuite(json ? JSON.parse(text) : parseDocument(text).toJSON(), { source: suitePath });
  await writeSuiteFile(suitePath, text);
  return evalCase;
}
