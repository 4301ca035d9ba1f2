import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { InvalidEvalSuiteError } from './errors/invalid-eval-suite-error.js';
import { type EvalSuite, parseEvalSuite } from './eval-suite.js';

/**
 * Parses suite text: JSON for a `.json` file, YAML otherwise (YAML also reads JSON). `yaml` is loaded here, on
 * first use, not when `@x/agent` is imported: it is a CommonJS package of ~80 files that only evals read.
 */
export async function parseSuiteText(text: string, source: string): Promise<unknown> {
  try {
    return source.endsWith('.json') ? JSON.parse(text) : (await import('yaml')).parse(text);
  } catch (cause) {
    throw new InvalidEvalSuiteError(
      { source, problem: `not valid ${source.endsWith('.json') ? 'JSON' : 'YAML'}: ${(cause as Error).message}` },
      { cause },
    );
  }
}

/** Reads and validates a suite file (YAML or JSON); relative conversation paths start at its directory. */
export async function loadSuite(path: string): Promise<EvalSuite> {
  const source = resolve(path);
  let text: string;
  try {
    text = await readFile(source, 'utf8');
  } catch (cause) {
    throw new InvalidEvalSuiteError({ source, problem: `cannot be read: ${(cause as Error).message}` }, { cause });
  }
  return parseEvalSuite(await parseSuiteText(text, source), { source, directory: dirname(source) });
}
