// The signed-events and langchain-messages examples, each run as its own process against a scripted
// OpenAI-compatible server (OPENAI_BASE_URL), as a user configures a real provider.
import { startScriptedLLMServer } from '@x/agent/testing';
import { describe, expect, it } from 'vitest';
import { describeRun, runExample } from './support/run-example.js';

async function runWithOpenAI(name: string, replies: { content: string }[]) {
  const server = await startScriptedLLMServer(replies);
  try {
    return await runExample(name, { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: server.baseURL });
  } finally {
    await server.close();
  }
}

describe('examples, each run as a process', () => {
  it('signed-events: every event signed by the agent or the approver, and a changed event is named', async () => {
    const run = await runWithOpenAI('signed-events', [{ content: 'Hello!' }]);
    expect(run.code, describeRun(run)).toBe(0);
    const agent = /^agent: (did:key:z6Mk\w+)$/m.exec(run.stdout)?.[1];
    const approver = /^approver: (did:key:z6Mk\w+)$/m.exec(run.stdout)?.[1];
    expect(agent).toBeDefined();
    expect(approver).toBeDefined();
    expect(run.stdout).toMatch(/^signatures: verified (\d+) of \1 signed$/m);
    expect(run.stdout).toMatch(new RegExp(`^signer ${approver}: 1 event\\(s\\)$`, 'm'));
    expect(run.stdout).toMatch(new RegExp(`^signer ${agent}: \\d+ event\\(s\\)$`, 'm'));
    expect(run.stdout).toMatch(
      new RegExp(`^after tampering: invalid event 1 \\(id .+\\) changed after ${approver} signed it$`, 'm'),
    );
  });

  it('langchain-messages: a conversation as LangChain messages, and a LangChain history as events', async () => {
    const run = await runWithOpenAI('langchain-messages', [{ content: '2 + 2 = 4' }]);
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.lines).toContain('langchain: SystemMessage, HumanMessage, AIMessage');
    expect(run.lines).toContain('stored types: system, human, ai');
    expect(run.lines).toContain('events: MessageEvent, ActionEvent, ObservationEvent, MessageEvent');
  });
});
