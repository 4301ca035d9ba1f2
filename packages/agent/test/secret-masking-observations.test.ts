import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentErrorEvent, AnyEvent, ObservationEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  Conversation,
  createFileEditorTool,
  createOfflineLLM,
  defineTool,
  type OfflineTurn,
  SecretRegistry,
} from '../src/index.js';

// Every tool's observation is masked by the conversation (execute-actions), not only the terminal's own output:
// a custom tool, the file editor and a tool's error message must never carry a secret value into the log.

const secret = 'sk-live-4f2a9c1e77';
const other = 'pw-0b8d3e55';

let dir: string;
/** The conversation store, beside the workspace: a workspace that holds its store is refused. */
let store: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-masking-'));
  store = await mkdtemp(join(tmpdir(), 'x-masking-store-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
  await rm(store, { recursive: true, force: true, maxRetries: 5 });
});

const leaky = defineTool({
  name: 'leaky',
  description: 'Returns whatever it is told to, like a tool that prints a config file.',
  parameters: z.object({ text: z.string(), fail: z.boolean().optional() }),
  execute: ({ text, fail }) => {
    if (fail === true) throw new Error(`could not connect with ${text}`);
    return { content: text };
  },
});

async function run(script: OfflineTurn[]) {
  const events: AnyEvent[] = [];
  const conversation = await Conversation.create({
    agent: new Agent({ llm: createOfflineLLM({ script }), tools: [leaky, createFileEditorTool()] }),
    workspace: dir,
    persistenceDir: join(store, 'data'),
    durability: 'none',
    secrets: { API_KEY: secret, DB_PASSWORD: other },
    onEvent: (event) => events.push(event),
  });
  await conversation.sendMessage('go');
  await conversation.run();
  await conversation.close();
  return events;
}

const finish: OfflineTurn = { toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] };

describe('masking of every tool observation', () => {
  it('masks a custom tool’s text output', async () => {
    const events = await run([
      { toolCalls: [{ name: 'leaky', arguments: { text: `key=${secret} pw=${other}` } }] },
      finish,
    ]);
    const observation = events.find((event): event is ObservationEvent => event.kind === 'ObservationEvent');
    expect(observation?.observation.content).toMatchObject([
      { type: 'text', text: 'key=<secret-hidden> pw=<secret-hidden>' },
    ]);
  });

  it('masks what the file editor shows of a file holding a secret', async () => {
    await writeFile(join(dir, 'config.env'), `API_KEY=${secret}\n`);
    const events = await run([
      { toolCalls: [{ name: 'file_editor', arguments: { command: 'view', path: join(dir, 'config.env') } }] },
      finish,
    ]);
    const observation = events.find((event): event is ObservationEvent => event.kind === 'ObservationEvent');
    const text = JSON.stringify(observation?.observation.content);
    expect(text).toContain('API_KEY=<secret-hidden>');
    expect(text).not.toContain(secret);
  });

  it('masks a tool’s error message', async () => {
    const events = await run([
      { toolCalls: [{ name: 'leaky', arguments: { text: `postgres://u:${other}@db`, fail: true } }] },
      finish,
    ]);
    const error = events.find((event): event is AgentErrorEvent => event.kind === 'AgentErrorEvent');
    expect(error?.error).toBe("Error executing tool 'leaky': could not connect with postgres://u:<secret-hidden>@db");
  });
});

describe('SecretRegistry.mask merges matches', () => {
  it('hides two secrets that touch as one placeholder', () => {
    const registry = new SecretRegistry({ A: 'abc123', B: 'xyz789' });
    expect(registry.mask('=abc123xyz789=')).toBe('=<secret-hidden>=');
  });

  it('hides two overlapping secrets whole, whatever their order', () => {
    const registry = new SecretRegistry({ A: 'abcdef', B: 'defghi' });
    expect(registry.mask('[abcdefghi]')).toBe('[<secret-hidden>]');
    expect(new SecretRegistry({ B: 'defghi', A: 'abcdef' }).mask('[abcdefghi]')).toBe('[<secret-hidden>]');
  });

  it('hides a secret inside a longer one whole and keeps separate matches apart', () => {
    const registry = new SecretRegistry({ SHORT: 'tok', LONG: 'xx-tok-yy' });
    expect(registry.mask('tok and xx-tok-yy and tok')).toBe('<secret-hidden> and <secret-hidden> and <secret-hidden>');
    expect(registry.mask('tok tok')).toBe('<secret-hidden> <secret-hidden>');
  });

  it('leaves values shorter than three characters visible', () => {
    expect(new SecretRegistry({ A: 'ab', B: 'abc' }).mask('ab abc')).toBe('ab <secret-hidden>');
  });
});

describe('secrets in a tool’s environment', () => {
  /** Runs one call of a tool that records the `env` it was given; `secrets` as `Conversation.create` takes them. */
  async function envSeen(text: string, secrets?: Record<string, string>) {
    const seen: Record<string, string>[] = [];
    const probe = defineTool({
      name: 'probe',
      description: 'Records the environment it is given.',
      parameters: z.object({ text: z.string() }),
      execute: (_args, context) => {
        seen.push({ ...context.env });
        return { content: 'ok' };
      },
    });
    const conversation = await Conversation.create({
      agent: new Agent({
        llm: createOfflineLLM({ script: [{ toolCalls: [{ name: 'probe', arguments: { text } }] }, finish] }),
        tools: [probe],
      }),
      workspace: dir,
      persistenceDir: join(store, 'data'),
      durability: 'none',
      ...(secrets === undefined ? {} : { secrets }),
    });
    await conversation.sendMessage('go');
    await conversation.run();
    await conversation.close();
    return seen;
  }

  it('gives a tool the secrets its action names, and none without secrets', async () => {
    expect(await envSeen('curl -H "key: $api_key"', { API_KEY: secret, DB_PASSWORD: other })).toEqual([
      { API_KEY: secret },
    ]);
    expect(await envSeen('curl -H "key: $api_key"')).toEqual([{}]);
  });
});
