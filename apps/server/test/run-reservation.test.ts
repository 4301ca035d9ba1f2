// The run a face claims between its checks and its start (`ManagedConversation.reserveRun`), through the conversation
// the server holds: while claimed, the conversation is running to everyone else (a second claim and another start are
// refused, 409), a message sent with `run` is recorded and joins the claimed run once it begins, and one whose claim
// is given up without a run is run then, not left unanswered. Driven by hand, step by step: no timing is involved.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createConversation,
  finishReply,
  removeDir,
  startTestServer,
  type TestServer,
  waitFor,
  waitForIdle,
} from './helpers.js';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.stop();
  await removeDir(server.dataDir);
});

const userMessage = (text: string) => ({
  role: 'user' as const,
  content: [{ type: 'text' as const, text, cache_prompt: false }],
  thinking_blocks: [],
});

/** The user texts of the conversation's log. */
async function recordedUserTexts(id: string): Promise<string[]> {
  const conversation = await (await server.built.manager.require(id)).open();
  return (await conversation.log.range(0, conversation.log.length)).flatMap((event) =>
    event.kind === 'MessageEvent' && event.source === 'user'
      ? event.llm_message.content.flatMap((part) => (part.type === 'text' ? [part.text] : []))
      : [],
  );
}

/** How many runs the conversation's log records as started. */
async function runsStarted(id: string): Promise<number> {
  const conversation = await (await server.built.manager.require(id)).open();
  return (await conversation.log.range(0, conversation.log.length)).filter(
    (event) =>
      event.kind === 'ConversationStateUpdateEvent' && (event.value as { phase?: string } | null)?.phase === 'started',
  ).length;
}

describe('a claimed run', () => {
  it('refuses a second claim and another start (409), and takes a message sent with run when it begins', async () => {
    const id = await createConversation(server);
    const managed = await server.built.manager.require(id);
    const reservation = managed.reserveRun();
    try {
      expect(managed.isRunning).toBe(true);
      expect(() => managed.reserveRun()).toThrow(expect.objectContaining({ statusCode: 409 }));
      // As REST `/run` starts one: it waits for the claim, then finds the claimed run going.
      const plainStart = managed.startRun().then(
        () => 'started',
        (error: { statusCode?: number }) => error.statusCode,
      );
      const sent = managed.sendMessage(userMessage('joined'), { run: true });
      await waitFor(async () => (await recordedUserTexts(id)).includes('joined'));
      server.llm.push(finishReply('one run'));
      await reservation.start();
      await sent;
      expect(await plainStart).toBe(409);
    } finally {
      reservation.release();
    }
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    expect(await runsStarted(id)).toBe(1);
    expect(JSON.stringify(server.llm.requests.at(-1))).toContain('joined');
  });

  it('given up without a run, runs the message sent with run meanwhile', async () => {
    const id = await createConversation(server);
    const managed = await server.built.manager.require(id);
    const reservation = managed.reserveRun();
    const sent = managed.sendMessage(userMessage('waited'), { run: true });
    await waitFor(async () => (await recordedUserTexts(id)).includes('waited'));
    server.llm.push(finishReply('run after the claim'));
    reservation.release();
    await sent;
    expect((await waitForIdle(server, id)).execution_status).toBe('finished');
    expect(await runsStarted(id)).toBe(1);
    expect(JSON.stringify(server.llm.requests.at(-1))).toContain('waited');
  });

  it('is waited for by waitForRun, through the run it starts', async () => {
    const id = await createConversation(server);
    const managed = await server.built.manager.require(id);
    const reservation = managed.reserveRun();
    let ended = false;
    const waited = managed.waitForRun(60_000).then((value) => {
      ended = true;
      return value;
    });
    await managed.sendMessage(userMessage('go'), { run: false });
    expect(ended).toBe(false);
    server.llm.push(finishReply('done'));
    await reservation.start();
    expect(await waited).toBe(true);
    expect(managed.isRunning).toBe(false);
  });
});
