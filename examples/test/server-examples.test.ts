// The server examples run as their own processes: the server (what `x serve` runs) inside the example, the
// model a scripted OpenAI-compatible server here, and for the replicas a real PostgreSQL started by the test.
import { type ScriptedReply, startScriptedLLMServer } from '@x/agent/testing';
import {
  createTestDatabase,
  type PostgresServer,
  startPostgresServer,
  type TestDatabase,
} from '@x/store-postgres/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRun, runExample } from './support/run-example.js';

const finish = (message: string): ScriptedReply => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

describe('server examples, each run as a process', () => {
  it('server-remote-client: a RemoteConversation runs an agent on the in-process server', async () => {
    const llm = await startScriptedLLMServer([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo hello > greeting.txt && cat greeting.txt' } }] },
      finish('greeting.txt says hello'),
    ]);
    try {
      const run = await runExample('server-remote-client', {
        OPENAI_API_KEY: 'sk-local',
        OPENAI_BASE_URL: llm.baseURL,
      });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.stdout).toMatch(/^server listening on http:\/\/127\.0\.0\.1:\d+$/m);
      // The client's stream saw the run's events with their indexes, in order.
      expect(run.stdout).toMatch(/^event \d+ MessageEvent$/m);
      expect(run.stdout).toMatch(/^event \d+ ObservationEvent$/m);
      expect(run.lines).toContain('status: finished');
      // The server used its own key (OPENAI_API_KEY) for the model; the client never sent one.
      expect(llm.requestHeaders[0]?.authorization).toBe('Bearer sk-local');
      const messages = JSON.stringify(llm.requests[1]?.messages);
      expect(messages).toContain('hello');
    } finally {
      await llm.close();
    }
  });

  it('ag-ui-client: the official AG-UI client runs a thread on the server, streamed, with a frontend tool', async () => {
    const llm = await startScriptedLLMServer([
      {
        content: 'Printing the date first.',
        toolCalls: [{ name: 'terminal', arguments: { command: 'echo ag-ui-date' } }],
      },
      { toolCalls: [{ name: 'notify_user', arguments: { text: 'The date is ag-ui-date' } }] },
      finish('printed it'),
    ]);
    try {
      const run = await runExample('ag-ui-client', { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: llm.baseURL });
      expect(run.code, describeRun(run)).toBe(0);
      const types = run.lines.filter((line) => line.startsWith('ag-ui ')).map((line) => line.slice(6));
      expect(types[0]).toBe('RUN_STARTED');
      expect(types).toEqual(
        expect.arrayContaining(['TOOL_CALL_START', 'TOOL_CALL_ARGS', 'TOOL_CALL_END', 'TOOL_CALL_RESULT']),
      );
      expect(types.at(-1)).toBe('RUN_FINISHED');
      expect(run.lines).toContain('message tool');
      expect(JSON.stringify(llm.requests[1]?.messages)).toContain('ag-ui-date');
      // Token deltas: the streamed thought came in several pieces.
      expect(types.filter((type) => type === 'TEXT_MESSAGE_CONTENT').length).toBeGreaterThan(1);
      // The frontend tool ran in the client, and its result reached the model.
      expect(run.lines).toContain('notify_user: The date is ag-ui-date');
      expect(JSON.stringify(llm.requests[2]?.messages)).toContain('The user saw it.');
      // The shared state and the context reached the model; the state came back to the client.
      expect(JSON.stringify(llm.requests[0]?.messages)).toContain('Europe/London');
      expect(JSON.stringify(llm.requests[0]?.messages)).toContain('\\"name\\":\\"Ada\\"');
      expect(run.lines).toContain('state {"user":{"name":"Ada","plan":"pro"}}');
    } finally {
      await llm.close();
    }
  });

  it('openai-gateway: the openai SDK lists the agent as a model, chats with it, continues and streams', async () => {
    const llm = await startScriptedLLMServer([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo gateway-date' } }] },
      finish('It printed gateway-date'),
      finish('I ran echo'),
    ]);
    try {
      const run = await runExample('openai-gateway', { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: llm.baseURL });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.lines).toContain('models: x-terminal');
      expect(run.lines).toContain('answer: It printed gateway-date');
      expect(run.stdout).toMatch(/^conversation: [0-9a-f-]{32,36}$/m);
      expect(run.lines).toContain('streamed: I ran echo');
      // The system message reached the agent; the streamed turn continued the same conversation.
      expect(JSON.stringify(llm.requests[0]?.messages)).toContain('Answer in one line.');
      expect(JSON.stringify(llm.requests[2]?.messages)).toContain('gateway-date');
    } finally {
      await llm.close();
    }
  });

  it('a2a-sub-agent: the parent delegates to a remote A2A agent and gets its answer', async () => {
    // One model server answers the parent and the remote agent: the remote's conversation starts with the task.
    const llm = await startScriptedLLMServer((body) => {
      const messages = body.messages as { role: string; content: unknown }[];
      const first = JSON.stringify(messages.find((message) => message.role === 'user')?.content ?? '');
      if (!first.includes('Spawn a')) return finish('Lima');
      const answered = messages.filter((message) => message.role === 'tool').length;
      if (answered === 0) {
        return {
          toolCalls: [{ name: 'delegate', arguments: { command: 'spawn', ids: ['far'], agent_types: ['remote'] } }],
        };
      }
      if (answered === 1) {
        const tasks = { far: 'What is the capital of Peru?' };
        return { toolCalls: [{ name: 'delegate', arguments: { command: 'delegate', tasks } }] };
      }
      return finish('The remote says Lima');
    });
    try {
      const run = await runExample('a2a-sub-agent', { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: llm.baseURL });
      expect(run.code, describeRun(run)).toBe(0);
      const observations = run.lines.filter((line) => line.startsWith('delegate observation:'));
      expect(observations[0]).toContain('Successfully spawned 1 sub-agents: far (remote)');
      expect(run.stdout).toContain('1. Agent far: Lima');
      expect(run.lines).toContain('status: finished');
      expect(llm.requests).toHaveLength(4); // parent: spawn, delegate, finish; the remote: one
    } finally {
      await llm.close();
    }
  });

  it('mcp-face-client: the MCP SDK client runs the agent through the MCP face, with progress and the answer', async () => {
    const llm = await startScriptedLLMServer([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo mcp-date' } }] },
      finish('printed it'),
    ]);
    try {
      const run = await runExample('mcp-face-client', { OPENAI_API_KEY: 'sk-local', OPENAI_BASE_URL: llm.baseURL });
      expect(run.code, describeRun(run)).toBe(0);
      expect(run.lines).toContain(
        'tools start_conversation send_message run interrupt get_conversation list_conversations confirm_actions',
      );
      expect(run.lines).toContainEqual(expect.stringMatching(/^progress \d+ agent calls terminal: echo mcp-date$/));
      expect(run.lines).toContain('status finished');
      expect(run.lines).toContain('answer printed it');
      expect(run.lines).toContainEqual(
        expect.stringMatching(/^events SystemPromptEvent MessageEvent .*ActionEvent ObservationEvent/),
      );
      expect(JSON.stringify(llm.requests[1]?.messages)).toContain('mcp-date');
    } finally {
      await llm.close();
    }
  });

  describe('on PostgreSQL', () => {
    let postgres: PostgresServer | undefined;
    let database: TestDatabase | undefined;
    beforeAll(async () => {
      postgres = await startPostgresServer();
      database = await createTestDatabase(postgres.url);
    });
    afterAll(async () => {
      await database?.drop();
      await postgres?.stop();
    });

    it('replicas-postgres: created on A, read on B, run on C, streamed live to A', async () => {
      const llm = await startScriptedLLMServer([{ content: 'first answer' }, { content: 'second answer' }]);
      try {
        const run = await runExample('replicas-postgres', {
          OPENAI_API_KEY: 'sk-local',
          OPENAI_BASE_URL: llm.baseURL,
          X_SERVER_DATABASE_URL: (database as TestDatabase).url,
        });
        expect(run.code, describeRun(run)).toBe(0);
        expect(run.lines).toContain('run on A: finished');
        const onB = run.lines.find((line) => line.startsWith('events on B:'));
        // System prompt, the user's message, the agent's answer and the state updates around them.
        expect(Number(onB?.split(': ')[1])).toBeGreaterThanOrEqual(3);
        expect(run.lines).toContain('run on C: finished');
        expect(run.lines).toContain('A streamed the answer from C: second answer');
        expect(llm.requests).toHaveLength(2);
      } finally {
        await llm.close();
      }
    }, 120_000);
  });
});
