// Who refused a pending action through AG-UI (a `resume` entry answering an interrupt), as the decision record and
// `/decisions` keep it: the caller's session key principal, as REST, MCP and A2A record it, never the default `user`.
import { createHash, randomUUID } from 'node:crypto';
import type { ResumeEntry } from '@ag-ui/core';
import { readDecision } from '@x/agent';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRequest, finishReply, removeDir, startTestServer, type TestServer } from '../helpers.js';
import { runToEnd as run, XAgent } from '../support/ag-ui-agent.js';

const KEY = 'ag-ui-refusing-key';
const principal = `api-key:${createHash('sha256').update(KEY).digest('hex').slice(0, 12)}`;
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ config: { apiKeys: [KEY] } });
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

/** An HttpAgent that sends the session key, as a frontend behind the key would. */
function keyedAgent(threadId: string): XAgent {
  const agent = new XAgent(server.url, threadId);
  agent.headers = { 'X-Session-API-Key': KEY };
  return agent;
}

/** The decisions recorded on a thread's pending action after the interrupt was answered with `payload`. */
async function answeredWith(payload: unknown) {
  const threadId = randomUUID();
  server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo cleaned' } }] });
  const agent = keyedAgent(threadId);
  agent.addMessage({ id: randomUUID(), role: 'user', content: 'Clean the build' });
  await run(agent, {
    forwardedProps: { conversation: createRequest(server.llm, { confirmation_policy: { kind: 'AlwaysConfirm' } }) },
  });
  const managed = await server.built.manager.require(threadId);
  const pending = await (await managed.open()).pendingActions();
  expect(pending).toHaveLength(1);
  server.llm.push(finishReply('done'));
  const resume: ResumeEntry[] = pending.map((action) => ({ interruptId: action.id, status: 'resolved', payload }));
  await run(agent, { resume });
  const open = await managed.open();
  return Promise.all(pending.map((action) => readDecision(open.store, open.directory, action.id)));
}

describe('an AG-UI answer to a confirmation interrupt, driven by @ag-ui/client', () => {
  it('records a refusal with the principal of the key that answered', async () => {
    expect(await answeredWith({ approved: false, reason: 'too risky' })).toEqual([
      expect.objectContaining({ principal, decision: { kind: 'deny', reason: 'too risky' } }),
    ]);
  });

  it('records an approval with the principal of the key that answered, not as the run', async () => {
    expect(await answeredWith({ approved: true })).toEqual([
      expect.objectContaining({ principal, decision: { kind: 'approve' } }),
    ]);
  });
});
