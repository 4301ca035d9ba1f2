// How an A2A sub-agent reads each way a remote task can end, against `@a2a-js/sdk`'s own server classes on
// 127.0.0.1: the executor below ends each task as its text asks (input or authorization required, rejected,
// canceled, a stream that ends while working, a direct message, no answer at all).
import { TaskState } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor } from '@a2a-js/sdk/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA2aSubAgentType, RemoteAgentError, type RemoteSubAgent } from '../src/index.js';
import { agentMessage, serveA2aExecutor, textPart } from './support/a2a-remote-agent.js';

interface Received {
  text: string;
  taskId: string;
  role: number;
}

/** How each task ends, by its text: `<state>` or `<state>:<status message>`. */
const endings: Record<string, TaskState> = {
  input: TaskState.TASK_STATE_INPUT_REQUIRED,
  draft: TaskState.TASK_STATE_INPUT_REQUIRED,
  auth: TaskState.TASK_STATE_AUTH_REQUIRED,
  reject: TaskState.TASK_STATE_REJECTED,
  cancel: TaskState.TASK_STATE_CANCELED,
  silent: TaskState.TASK_STATE_COMPLETED,
};

async function startRemote() {
  const received: Received[] = [];
  const executor: AgentExecutor = {
    async execute(context, bus) {
      const text = context.userMessage.parts
        .map((part) => (part.content?.$case === 'text' ? part.content.value : ''))
        .join('');
      const { taskId, contextId } = context;
      received.push({ text, taskId, role: context.userMessage.role });
      const [kind = '', said] = text.split(':');
      if (kind === 'message') {
        bus.publish(AgentEvent.message({ ...agentMessage(`agent-${said ?? ''}`, said ?? ''), contextId }));
        bus.finished();
        return;
      }
      const status = (state: TaskState) => ({
        state,
        message: said === undefined ? undefined : agentMessage(`agent-${said}`, said),
        timestamp: undefined,
      });
      bus.publish(
        AgentEvent.task({
          id: taskId,
          contextId,
          status: status(TaskState.TASK_STATE_WORKING),
          artifacts: [],
          history: [context.userMessage],
          metadata: undefined,
        }),
      );
      if (kind === 'draft') {
        const artifact = { artifactId: 'draft', name: 'draft', description: '', parts: [textPart('a draft')] };
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: { ...artifact, metadata: undefined, extensions: [] },
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
      }
      const state = endings[kind];
      if (state !== undefined) {
        bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(state), metadata: undefined }));
      }
      bus.finished();
    },
    async cancelTask() {},
  };
  const served = await serveA2aExecutor(executor, {
    name: 'states test agent',
    description: 'Ends tasks as asked',
    skills: [],
  });
  return { ...served, received };
}

let remote: Awaited<ReturnType<typeof startRemote>>;
let agent: RemoteSubAgent;
beforeEach(async () => {
  remote = await startRemote();
  agent = await createA2aSubAgentType({ url: remote.url }).connect();
});
afterEach(async () => {
  await remote.close();
});

const send = (task: string, signal?: AbortSignal) => agent.send(task, { signal });
const failure = (task: string) =>
  send(task).then(
    () => undefined,
    (error: unknown) => error,
  );

describe('an A2A sub-agent', () => {
  it('sends each task as the user, and answers with a direct message', async () => {
    expect(await send('message:hello back')).toMatchObject({ text: 'hello back' });
    expect(remote.received.map((task) => task.role)).toEqual([1]);
  });

  it('says what a task waiting for input or authorization needs, and continues that task with the next', async () => {
    expect(await send('input:which branch?')).toBe('The remote agent needs more input: which branch?');
    expect(await send('auth:log in first')).toBe('The remote agent needs authorization: log in first');
    expect(remote.received[1]?.taskId).toBe(remote.received[0]?.taskId);
    await send('message:done');
    expect(remote.received[2]?.taskId).toBe(remote.received[0]?.taskId);
  });

  it('asks with the status message, not the draft artifact, when a task with an artifact needs input', async () => {
    expect(await send('draft:is this right?')).toBe('The remote agent needs more input: is this right?');
  });

  it('fails a task the remote rejects or cancels, with what it said', async () => {
    const rejected = await failure('reject:not allowed');
    expect(rejected).toBeInstanceOf(RemoteAgentError);
    expect((rejected as Error).message).toBe(`The A2A agent at ${remote.url} rejected the task: not allowed`);
    expect(((await failure('cancel')) as Error).message).toBe(`The A2A agent at ${remote.url} canceled the task`);
  });

  it('fails a stream that ends while the task is still working', async () => {
    expect(((await failure('hang-up')) as Error).message).toBe(
      `The A2A agent at ${remote.url} ended the stream while the task was still working`,
    );
  });

  it('says so when a completed task answered nothing', async () => {
    expect(await send('silent')).toEqual({ text: 'No response from the remote agent', usage: undefined });
  });

  it('reports a remote that went away as a RemoteAgentError, and an abort as the abort', async () => {
    const aborted = new AbortController();
    aborted.abort();
    const abortError = await send('message:too late', aborted.signal).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(abortError).toBeInstanceOf(Error);
    expect(abortError).not.toBeInstanceOf(RemoteAgentError);
    expect(remote.received).toEqual([]);
    await remote.close();
    const gone = await failure('message:anyone?');
    expect(gone).toBeInstanceOf(RemoteAgentError);
    expect((gone as Error).message).toMatch(new RegExp(`^The A2A agent at ${remote.url} failed the request: `));
  });
});
