import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readRecordedConversation, replayRecording } from '../src/index.js';
import { evalAgent, GOOD_SCRIPT, recordConversation } from './support/eval-recordings.js';

let root: string;
let recorded: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-replay-close-'));
  recorded = await recordConversation(root, GOOD_SCRIPT);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('replayRecording', () => {
  it("closes the replayed conversation: the terminal's shell is not left running", async () => {
    const recording = await readRecordedConversation(recorded);
    const processes = () => process.getActiveResourcesInfo().filter((kind) => kind === 'ProcessWrap').length;
    const before = processes();
    // The recording ran `cat notes.txt` in the terminal, so the replay starts a shell.
    const outcome = await replayRecording(recording, { caseId: 'c', agent: (llm) => evalAgent(llm) });
    expect(outcome.divergence).toBeUndefined();
    expect(processes()).toBe(before);
  });
});
