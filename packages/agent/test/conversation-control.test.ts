import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent, Condensation } from '@x/events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  CondenserUnavailableError,
  Conversation,
  createOpenAILLM,
  LLMSummarizingCondenser,
  NoUserMessageError,
} from '../src/index.js';
import type { ScriptedReply, ScriptedRequestBody } from '../src/testing/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

type ChatMessage = { role: string; content?: unknown; tool_call_id?: string };
const messagesOf = (body: ScriptedRequestBody | undefined) => (body?.messages ?? []) as ChatMessage[];
const textOf = (body: ScriptedRequestBody | undefined) => JSON.stringify(messagesOf(body));
const isSummaryRequest = (body: ScriptedRequestBody) => textOf(body).includes('<EVENT>');

function ofKind<K extends AnyEvent['kind']>(events: readonly AnyEvent[], kind: K): Extract<AnyEvent, { kind: K }>[] {
  return events.filter((event): event is Extract<AnyEvent, { kind: K }> => event.kind === kind);
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

describe('confirmation mode', () => {
  const riskyCall: ScriptedReply = {
    toolCalls: [
      { name: 'terminal', arguments: { command: 'echo risky > out.txt', security_risk: 'HIGH', summary: 'write' } },
    ],
  };

  it('holds a risky action, then runs it on the next run (implicit confirmation)', async () => {
    harness = await startHarness([riskyCall, { toolCalls: [{ name: 'finish', arguments: { message: 'ok' } }] }]);
    const { conversation, events } = await harness.conversation({ confirmationPolicy: { kind: 'ConfirmRisky' } });
    await conversation.sendMessage('write a file');
    const held = await conversation.run();
    expect(held.status).toBe('waiting_for_confirmation');
    expect(conversation.state.pending_actions).toHaveLength(1);
    expect(ofKind(events, 'ObservationEvent')).toHaveLength(0);

    expect((await conversation.run()).status).toBe('finished');
    expect(await readFile(join(harness.workspace, 'out.txt'), 'utf8')).toBe('risky\n');
    expect(conversation.state.pending_actions).toEqual([]);
  });

  it('runs a low-risk action without asking under ConfirmRisky', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo safe', security_risk: 'LOW' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'ok' } }] },
    ]);
    const { conversation } = await harness.conversation({ confirmationPolicy: { kind: 'ConfirmRisky' } });
    await conversation.sendMessage('go');
    expect((await conversation.run()).status).toBe('finished');
  });

  it('rejects pending actions with UserRejectObservations the model then sees; the policy persists', async () => {
    harness = await startHarness([riskyCall, { content: 'Understood, I will not do that.' }]);
    const { conversation, events } = await harness.conversation({ confirmationPolicy: { kind: 'AlwaysConfirm' } });
    await conversation.sendMessage('write a file');
    expect((await conversation.run()).status).toBe('waiting_for_confirmation');
    await conversation.rejectPendingActions('Not on my machine');
    expect(conversation.state.execution_status).toBe('idle');
    const rejection = ofKind(events, 'UserRejectObservation')[0];
    expect(rejection).toMatchObject({ rejection_reason: 'Not on my machine', rejection_source: 'user' });

    await conversation.run();
    const last = messagesOf(harness.server.requests[1]).at(-1);
    expect(JSON.stringify(last)).toContain('Action rejected: Not on my machine');

    await conversation.setConfirmationPolicy({ kind: 'NeverConfirm' });
    await conversation.close();
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
    });
    expect(resumed.state.confirmation_policy).toEqual({ kind: 'NeverConfirm' });
  });
});

describe('stuck detection', () => {
  const sameThink: ScriptedReply = { toolCalls: [{ name: 'think', arguments: { thought: 'again' } }] };

  it('stops as stuck exactly at the repeated action/observation threshold', async () => {
    harness = await startHarness([sameThink, sameThink, sameThink, sameThink, { content: 'unreachable' }]);
    const { conversation } = await harness.conversation();
    await conversation.sendMessage('loop');
    const result = await conversation.run();
    expect(result.status).toBe('stuck');
    // Four identical pairs were made; the fifth request was never sent.
    expect(harness.server.requests).toHaveLength(4);
  });

  it('does not trigger one repetition before the threshold', async () => {
    harness = await startHarness([sameThink, sameThink, sameThink, { content: 'done thinking' }]);
    const { conversation } = await harness.conversation();
    await conversation.sendMessage('loop');
    expect((await conversation.run()).status).toBe('finished');
  });

  it('counts repetitions from before a restart (the recent history is read on the next run)', async () => {
    harness = await startHarness([sameThink, sameThink, sameThink, sameThink, { content: 'unreachable' }]);
    const { conversation } = await harness.conversation({ maxIterationsPerRun: 3 });
    await conversation.sendMessage('loop');
    await conversation.run();
    await conversation.close();
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
    });
    expect((await resumed.run()).status).toBe('stuck');
    expect(harness.server.requests).toHaveLength(4);
  });

  it('can be switched off', async () => {
    harness = await startHarness([sameThink, sameThink, sameThink, sameThink, sameThink, { content: 'done' }]);
    const { conversation } = await harness.conversation({ stuckDetection: false });
    await conversation.sendMessage('loop');
    expect((await conversation.run()).status).toBe('finished');
  });

  it('nudges after the third identical failing call and stops at the fourth', async () => {
    const bad: ScriptedReply = { toolCalls: [{ name: 'file_editor', arguments: { command: 'view' } }] };
    harness = await startHarness([bad, bad, bad, bad, { content: 'unreachable' }]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('look');
    expect((await conversation.run()).status).toBe('stuck');
    const nudges = ofKind(events, 'MessageEvent').filter((event) => event.source === 'environment');
    expect(nudges).toHaveLength(1);
    expect(JSON.stringify(nudges[0]?.llm_message)).toContain('3 times in a row');
  });
});

describe('condensation', () => {
  function condensingScript(thoughts: number): (body: ScriptedRequestBody) => ScriptedReply {
    let step = 0;
    return (body) => {
      if (isSummaryRequest(body)) return { content: 'SUMMARY: the user asked for thoughts; many were had.' };
      step += 1;
      if (step <= thoughts) return { toolCalls: [{ name: 'think', arguments: { thought: `thought-${step}` } }] };
      return { content: 'All done.' };
    };
  }

  it('condenses by size: the next request has the summary and none of the forgotten events', async () => {
    harness = await startHarness();
    const script = condensingScript(6);
    const { startScriptedLLMServer } = await import('../src/testing/index.js');
    const server = await startScriptedLLMServer(script);
    try {
      const llm = createOpenAILLM({ model: 'scripted', baseURL: server.baseURL, apiKey: 'sk', maxRetries: 0 });
      const condenser = new LLMSummarizingCondenser({ llm, maxSize: 10, keepFirst: 2 });
      const agent = harness.agent({ llm, condenser });
      const { conversation, events } = await harness.conversation({ agent });
      await conversation.sendMessage('think a lot');
      expect((await conversation.run()).status).toBe('finished');

      const condensation = ofKind(events, 'Condensation')[0] as Condensation;
      expect(condensation).toBeDefined();
      expect(condensation.summary_offset).toBe(2);
      const forgotten = new Set(condensation.forgotten_event_ids);
      const forgottenThoughts = ofKind(events, 'ActionEvent')
        .filter((event) => forgotten.has(event.id))
        .map((event) => String(event.action?.thought));
      expect(forgottenThoughts.length).toBeGreaterThan(0);

      const summaryIndex = server.requests.findIndex(isSummaryRequest);
      const summaryRequest = textOf(server.requests[summaryIndex]);
      for (const thought of forgottenThoughts) expect(summaryRequest).toContain(thought);
      const next = textOf(server.requests[summaryIndex + 1]);
      expect(next).toContain('SUMMARY: the user asked for thoughts');
      for (const thought of forgottenThoughts) expect(next).not.toContain(`"${thought}`);
    } finally {
      await server.close();
    }
  });

  it('answers a context-window overflow with a CondensationRequest that the next step honours', async () => {
    const { startScriptedLLMServer } = await import('../src/testing/index.js');
    let overflowed = false;
    let step = 0;
    const server = await startScriptedLLMServer((body) => {
      if (isSummaryRequest(body)) return { content: 'SUMMARY: earlier thinking.' };
      step += 1;
      if (step <= 6) return { toolCalls: [{ name: 'think', arguments: { thought: `idea-${step}` } }] };
      if (!overflowed) {
        overflowed = true;
        return { contextOverflow: true };
      }
      return { content: 'Finished after condensing.' };
    });
    harness = await startHarness();
    try {
      const llm = createOpenAILLM({ model: 'scripted', baseURL: server.baseURL, apiKey: 'sk', maxRetries: 0 });
      const condenser = new LLMSummarizingCondenser({ llm, maxSize: 200, keepFirst: 2 });
      const { conversation, events } = await harness.conversation({ agent: harness.agent({ llm, condenser }) });
      await conversation.sendMessage('think');
      expect((await conversation.run()).status).toBe('finished');
      const kinds = events.map((event) => event.kind);
      const requestAt = kinds.indexOf('CondensationRequest');
      expect(requestAt).toBeGreaterThan(0);
      expect(kinds.indexOf('Condensation')).toBeGreaterThan(requestAt);
      expect(textOf(server.requests.at(-1))).toContain('SUMMARY: earlier thinking.');
    } finally {
      await server.close();
    }
  });

  it('condense() fails with a typed error when no condenser handles requests', async () => {
    harness = await startHarness();
    const { conversation } = await harness.conversation();
    await expect(conversation.condense()).rejects.toBeInstanceOf(CondenserUnavailableError);
  });
});

describe('secrets', () => {
  it('gives a secret to the command that names it, masks it, and never persists it in clear text', async () => {
    const secret = 'sekrit-value-8731';
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo "token=$API_TOKEN"' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
    ]);
    const { conversation, events } = await harness.conversation({ secrets: { API_TOKEN: secret } });
    await conversation.sendMessage('print the token');
    await conversation.run();
    await conversation.close();
    const observation = ofKind(events, 'ObservationEvent')[0];
    expect(JSON.stringify(observation?.observation.content)).toContain('token=<secret-hidden>');
    const files = await filesUnder(harness.persistenceDir);
    expect(files.some((file) => file.endsWith('base_state.json'))).toBe(true);
    for (const file of files) expect(await readFile(file, 'utf8')).not.toContain(secret);
  });

  it('masks the encoded forms of a secret in every tool observation, terminal and file editor alike', async () => {
    const secret = 'sekrit/value+8731 ok';
    const encodings = [
      Buffer.from(`user:${secret}`).toString('base64'),
      Buffer.from(secret).toString('base64url'),
      Buffer.from(secret).toString('hex'),
      Buffer.from(secret).toString('hex').toUpperCase(),
      encodeURIComponent(secret),
      new URLSearchParams({ q: secret }).toString().slice(2),
    ];
    const print = [
      'printf %s "user:$API_TOKEN" | base64 -w0 > enc.txt',
      `node -e 'const v = process.env.API_TOKEN; const b = Buffer.from(v); console.log([b.toString("base64url"), b.toString("hex"), b.toString("hex").toUpperCase(), encodeURIComponent(v), new URLSearchParams({ q: v }).toString()].join(" "))'`,
    ].join(' && ');
    const view = { command: 'view', path: '' };
    harness = await startHarness([
      { toolCalls: [{ name: 'terminal', arguments: { command: print } }] },
      { toolCalls: [{ name: 'file_editor', arguments: view }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
    ]);
    // The script is read when the model is called, after the workspace exists.
    view.path = join(harness.workspace, 'enc.txt');
    const { conversation, events } = await harness.conversation({ secrets: { API_TOKEN: secret } });
    await conversation.sendMessage('print the token encoded');
    await conversation.run();
    await conversation.close();
    const observations = ofKind(events, 'ObservationEvent').filter((event) => event.tool_name !== 'finish');
    expect(observations.map((event) => event.tool_name)).toEqual(['terminal', 'file_editor']);
    for (const event of observations) expect(JSON.stringify(event.observation)).toContain('<secret-hidden>');
    const stored = await Promise.all((await filesUnder(harness.persistenceDir)).map((file) => readFile(file, 'utf8')));
    for (const encoded of encodings) {
      for (const text of stored) expect(text).not.toContain(encoded.slice(4, -4));
    }
  });

  it('persists secrets encrypted with a key, and restores them on resume', async () => {
    harness = await startHarness([
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell parameter expansion, not a JS template
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo "length=${#DB_PASSWORD}"' } }] },
      { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] },
    ]);
    const { conversation } = await harness.conversation({
      secrets: { DB_PASSWORD: 'pw-51515' },
      secretKey: 'server-key',
    });
    await conversation.close();
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
      secretKey: 'server-key',
      onEvent: () => undefined,
    });
    await resumed.sendMessage('check');
    await resumed.run();
    const all: AnyEvent[] = [];
    for await (const event of resumed.events()) all.push(event);
    expect(JSON.stringify(ofKind(all, 'ObservationEvent')[0]?.observation.content)).toContain('length=8');
    for (const file of await filesUnder(harness.persistenceDir))
      expect(await readFile(file, 'utf8')).not.toContain('pw-51515');
  });
});

describe('side questions and titles', () => {
  it('answers askAgent during a run without recording anything', async () => {
    const { startScriptedLLMServer } = await import('../src/testing/index.js');
    // The run's model call is held until the side question was answered, so the question is asked during it.
    let answered: () => void = () => undefined;
    const sideAnswered = new Promise<void>((resolve) => {
      answered = resolve;
    });
    const server = await startScriptedLLMServer((body) => {
      if (textOf(body).includes('side question')) return { content: 'SIDE-ANSWER: 42' };
      if (messagesOf(body).some((message) => message.role === 'tool')) return { content: 'main done' };
      return { toolCalls: [{ name: 'think', arguments: { thought: 'working' } }], gate: sideAnswered };
    });
    harness = await startHarness();
    try {
      const llm = createOpenAILLM({ model: 'scripted', baseURL: server.baseURL, apiKey: 'sk', maxRetries: 0 });
      const { conversation, events } = await harness.conversation({ agent: harness.agent({ llm }) });
      await conversation.sendMessage('main task');
      const running = conversation.run();
      await vi.waitFor(() => expect(server.requests).toHaveLength(1), { timeout: 60_000, interval: 10 });
      const answer = await conversation.askAgent('side question: what is the answer?');
      answered();
      expect(answer).toContain('SIDE-ANSWER: 42');
      expect((await running).status).toBe('finished');
      const serialized = JSON.stringify(events);
      expect(serialized).not.toContain('side question');
      expect(serialized).not.toContain('SIDE-ANSWER');
      expect(events.length).toBe(conversation.state.event_count);
    } finally {
      await server.close();
    }
  });

  it('generates a title from the first user message, and refuses without one', async () => {
    harness = await startHarness([{ content: 'Fix the login bug' }]);
    const { conversation } = await harness.conversation();
    await expect(conversation.generateTitle()).rejects.toBeInstanceOf(NoUserMessageError);
    await conversation.sendMessage('The login page throws a 500 when the password is empty; please fix it.');
    expect(await conversation.generateTitle()).toBe('Fix the login bug');
    expect(conversation.state.title).toBe('Fix the login bug');
    expect(textOf(harness.server.requests[0])).toContain('password is empty');
  });
});
