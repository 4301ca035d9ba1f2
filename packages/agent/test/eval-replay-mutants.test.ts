import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Conversation,
  createAgent,
  createOfflineLLM,
  defaultEvalAgent,
  defaultInheritedVariables,
  LLMSummarizingCondenser,
  readRecordedConversation,
  replayRecording,
} from '../src/index.js';
import { evalAgent, recordConversation } from './support/eval-recordings.js';

let root: string;
let condensed: string;
let condensations = 0;
let answered: string;

const STEPS = 9;

/** A recording whose agent condensed its history more than once, each time with a summary its own model wrote. */
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'x-eval-replay-'));
  const script = [
    ...Array.from({ length: STEPS }, (_, n) => ({
      toolCalls: [{ name: 'terminal', arguments: { command: `echo step-${n}` } }],
    })),
    { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
  ];
  const agent = createAgent({
    llm: createOfflineLLM({ script }),
    toolEnvironment: { inherit: [...defaultInheritedVariables], set: {} },
    condenser: new LLMSummarizingCondenser({
      llm: createOfflineLLM({ script: (_request, turn) => ({ content: `Summary ${turn}: echoed.` }) }),
      maxSize: 8,
      keepFirst: 1,
    }),
  });
  const workspace = await mkdtemp(join(root, 'ws-'));
  const conversation = await Conversation.create({
    agent,
    workspace,
    persistenceDir: join(root, 'conversations'),
    durability: 'none',
  });
  try {
    await conversation.sendMessage('Echo a few steps.');
    await conversation.run();
    for await (const event of conversation.events()) if (event.kind === 'Condensation') condensations += 1;
    condensed = conversation.location;
  } finally {
    await conversation.close();
  }
  // The agent answers in a message of its own, which a replay must not send back as the user's.
  answered = await recordConversation(root, [{ content: 'Just an answer.' }]);
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('replayRecording of a recording that condensed', () => {
  it('condenses where the recording did, with the recorded summaries in order, and matches every request', async () => {
    expect(condensations).toBeGreaterThan(1);
    const recording = await readRecordedConversation(condensed);
    const outcome = await replayRecording(recording, { caseId: 'condensed', agent: defaultEvalAgent });
    expect(outcome).toEqual({ divergence: undefined, matched: STEPS + 1, recorded: STEPS + 1 });
  });
});

describe('replayRecording of a recording where the agent answered in a message', () => {
  it("sends only the user's messages, so the one recorded request is the only one made", async () => {
    const recording = await readRecordedConversation(answered);
    expect(recording.events.filter((event) => event.kind === 'MessageEvent').length).toBe(2);
    const outcome = await replayRecording(recording, { caseId: 'answered', agent: (llm) => evalAgent(llm) });
    expect(outcome).toEqual({ divergence: undefined, matched: 1, recorded: 1 });
  });
});
