// A run (or an accepted confirmation) asked for while the previous run is only ending: its status already says
// it stopped stepping (finished, waiting for confirmation), but its checkpoint is still being written. A client
// that saw that status starts the next run at once, as the reference's RemoteConversation does; it must run, not
// be refused with 409 (which left the conversation idle under load). The ending run's checkpoint is held here.
import { createLocalFileStore, type FileStore } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  tempDir,
  waitFor,
} from './helpers.js';

/** A store whose base_state.json writes wait, once `hold()` was called, until `release()`. */
function checkpointGate(store: FileStore): { store: FileStore; hold(): void; release(): void; held(): number } {
  let gate: Promise<void> | undefined;
  let open: () => void = () => undefined;
  let held = 0;
  const wait = async (path: string): Promise<void> => {
    if (gate === undefined || !path.endsWith('base_state.json')) return;
    held += 1;
    await gate;
  };
  const gated = new Proxy(store, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property === 'write') {
        return async (path: string, data: string | Uint8Array) => {
          await wait(path);
          return target.write(path, data);
        };
      }
      if (property === 'writeRebuildable' && typeof value === 'function') {
        return async (files: readonly { path: string }[]) => {
          for (const file of files) await wait(file.path);
          return (value as (files: readonly { path: string }[]) => Promise<void>).call(target, files);
        };
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return {
    store: gated,
    hold() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release() {
      gate = undefined;
      open();
    },
    held: () => held,
  };
}

let server: TestServer | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await server?.stop();
  if (dataDir !== undefined) await removeDir(dataDir);
  server = undefined;
  dataDir = undefined;
});

async function start(): Promise<{ server: TestServer; gate: ReturnType<typeof checkpointGate> }> {
  dataDir = await tempDir();
  const gate = checkpointGate(createLocalFileStore({ root: dataDir }));
  server = await startTestServer({ dataDir, build: { store: gate.store } });
  return { server, gate };
}

const statusOf = async (server: TestServer, id: string): Promise<unknown> =>
  ((await server.call('GET', `/api/conversations/${id}`)).json as { execution_status: unknown }).execution_status;

const message = (text: string) => ({ role: 'user', content: [{ type: 'text', text }], run: false });

describe('a run asked for while the last one is ending', () => {
  it('runs once the ending run has written its checkpoint, instead of a 409', async () => {
    const { server, gate } = await start();
    const id = await createConversation(server);
    await server.call('POST', `/api/conversations/${id}/events`, message('first'));
    server.llm.push(finishReply('one'));
    gate.hold();
    expect((await server.call('POST', `/api/conversations/${id}/run`)).status).toBe(200);
    // Finished, but its end-of-run checkpoint is held: the run is still ending.
    await waitFor(async () => (await statusOf(server, id)) === 'finished' && gate.held() > 0);
    await server.call('POST', `/api/conversations/${id}/events`, message('second'));
    server.llm.push(finishReply('two'));
    const next = server.call('POST', `/api/conversations/${id}/run`);
    gate.release();
    expect((await next).status).toBe(200);
    await waitFor(async () => (await statusOf(server, id)) === 'finished' && server.llm.requests.length === 2);
    const page = await server.call('GET', `/api/conversations/${id}/events/search?limit=100`);
    const finishes = (page.json as { items: { kind: string; tool_name?: string }[] }).items.filter(
      (event) => event.kind === 'ObservationEvent' && event.tool_name === 'finish',
    );
    expect(finishes).toHaveLength(2);
  });

  it('runs the actions a confirmation accepted while the run that asked for it was ending', async () => {
    const { server, gate } = await start();
    const id = await createConversation(server, { confirmation_policy: { kind: 'AlwaysConfirm' } });
    await server.call('POST', `/api/conversations/${id}/events`, message('list'));
    server.llm.push({ toolCalls: [{ name: 'terminal', arguments: { command: 'echo accepted' } }] });
    gate.hold();
    await server.call('POST', `/api/conversations/${id}/run`);
    await waitFor(async () => (await statusOf(server, id)) === 'waiting_for_confirmation' && gate.held() > 0);
    server.llm.push(finishReply('done'));
    const accepted = server.call('POST', `/api/conversations/${id}/events/respond_to_confirmation`, {
      accept: true,
      reason: '',
    });
    gate.release();
    expect((await accepted).status).toBe(200);
    await waitFor(async () => (await statusOf(server, id)) === 'finished');
    const page = await server.call('GET', `/api/conversations/${id}/events/search?limit=100`);
    const texts = (page.json as { items: { kind: string; observation?: { content?: { text?: string }[] } }[] }).items
      .filter((event) => event.kind === 'ObservationEvent')
      .map((event) => event.observation?.content?.[0]?.text ?? '');
    expect(texts.some((text) => text.includes('accepted'))).toBe(true);
  });
});
