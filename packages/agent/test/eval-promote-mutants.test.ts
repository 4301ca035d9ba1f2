import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidEvalSuiteError, promoteConversation } from '../src/index.js';
import { GOOD_SCRIPT, recordConversation } from './support/eval-recordings.js';

let root: string;
let recorded: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-promote-'));
  recorded = await recordConversation(root, GOOD_SCRIPT);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('promoteConversation, the id asked for', () => {
  it('refuses an empty id rather than making one up, leaving the suite as it was', async () => {
    const path = join(root, 'suite.yaml');
    const before = 'cases:\n  - id: first\n    task: t\n    scorers: [no-errors]\n';
    await writeFile(path, before);
    const error = await promoteConversation({ location: recorded, suitePath: path, id: '' }).catch(
      (caught: unknown) => caught,
    );
    expect(InvalidEvalSuiteError.isInstance(error)).toBe(true);
    expect((error as InvalidEvalSuiteError).field).toBe('id');
    expect(await readFile(path, 'utf8')).toBe(before);
  });
});
