import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { InvalidEvalSuiteError } from './errors/invalid-eval-suite-error.js';
import { type EvalSuite, parseEvalSuite } from './eval-suite.js';

/** Parses suite text: JSON for a `.json` file, YAML otherwise (YAML also reads JSON). */
export function parseSuiteText(text: string, source: string): unknown {
  try {
    return source.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
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
  return parseEvalSuite(parseSuiteText(text, source), { source, directory: dirname(source) });
}
