import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidEvalSuiteError, loadSuite, promoteConversation } from '../src/index.js';
import { GOOD_SCRIPT, recordConversation } from './support/eval-recordings.js';

let root: string;
let recorded: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-promote-files-'));
  recorded = await recordConversation(root, GOOD_SCRIPT);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('promoteConversation into an empty suite file', () => {
  it.each([
    ['empty.yaml', ''],
    ['blank.yaml', '  \n\n\t\n'],
    ['empty.json', ''],
    ['blank.json', '\n  \n'],
  ])('%s: becomes a suite named after the file, with the one case', async (name, content) => {
    const path = join(root, name);
    await writeFile(path, content);
    const added = await promoteConversation({ location: recorded, suitePath: path, id: 'first' });
    const suite = await loadSuite(path);
    expect(suite.name).toBe(name.replace(/\.(yaml|json)$/, ''));
    expect(suite.cases.map((entry) => entry.id)).toEqual(['first']);
    expect(suite.cases[0]).toEqual(added);
    if (name.endsWith('.json')) expect(JSON.parse(await readFile(path, 'utf8')).cases).toHaveLength(1);
  });
});

describe('promoteConversation refuses a file that is not a suite, and leaves it as it was', () => {
  it.each([
    ['list.yaml', '- id: a\n'],
    ['scalar.yaml', 'just words\n'],
    ['no-cases.yaml', 'name: x\n'],
    ['yaml-in.json', 'cases:\n  - id: a\n    task: t\n    scorers: [no-errors]\n'],
    ['broken.json', '{"cases": ['],
    ['broken.yaml', 'cases: [\n'],
  ])('%s', async (name, content) => {
    const path = join(root, name);
    await writeFile(path, content);
    const error = await promoteConversation({ location: recorded, suitePath: path, id: 'added' }).catch(
      (caught: unknown) => caught,
    );
    expect(InvalidEvalSuiteError.isInstance(error), String(error)).toBe(true);
    expect((error as InvalidEvalSuiteError).source).toBe(path);
    expect((error as Error).message).toContain(path);
    expect(await readFile(path, 'utf8')).toBe(content);
  });

  it('a directory where the suite file should be', async () => {
    const path = join(root, 'folder.yaml');
    await mkdir(path);
    const error = await promoteConversation({ location: recorded, suitePath: path }).catch((caught: unknown) => caught);
    expect(InvalidEvalSuiteError.isInstance(error), String(error)).toBe(true);
    expect((error as Error).message).toContain(`${path}: cannot be read`);
  });
});
