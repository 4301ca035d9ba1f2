import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import type { AnyEvent } from '@x/events';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Agent, Conversation, type LLM } from '../src/index.js';
import { workspaceIn } from './support/workspace-beside-store.js';

// A failed run's error is thrown (as the cause of ConversationRunError) and printed by loggers whole: every error
// below it, not only the first `cause` levels, and not only errors that are `cause`s.

const SECRET = 'ghp_chainSecret_0123456789';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-error-chain-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true, maxRetries: 5 });
});

/** An error as retry and fetch layers build it: attempts in an AggregateError, wrapped level after level. */
function layeredError(): Error {
  const attempts = new AggregateError(
    [
      new Error(`attempt 1: token ${SECRET} refused`),
      Object.assign(new Error('attempt 2 failed'), { body: { echoed: Buffer.from(SECRET).toString('base64') } }),
    ],
    'all attempts failed',
  );
  const transport = new Error('socket closed', { cause: attempts });
  const proxy = new Error('proxy answered 502', { cause: `upstream said: ${encodeURIComponent(SECRET)}` });
  let error: Error = Object.assign(new Error('request failed', { cause: transport }), { proxy });
  for (let level = 1; level <= 10; level++) error = new Error(`layer ${level}`, { cause: error });
  return error;
}

async function allFiles(root: string): Promise<string> {
  let text = '';
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) text += await readFile(join(entry.parentPath, entry.name), 'utf8');
  }
  return text;
}

describe('secrets in the error chain of a failed run', () => {
  it('are hidden in every error the thrown error leads to, however deep, and in the log', async () => {
    const llm: LLM = {
      model: 'failing',
      usageId: 'default',
      offline: false,
      complete: async () => {
        throw layeredError();
      },
    };
    const events: AnyEvent[] = [];
    const conversation = await Conversation.create({
      agent: new Agent({ llm, tools: [] }),
      workspace: await workspaceIn(dir),
      persistenceDir: join(dir, 'data'),
      secrets: { GITHUB_TOKEN: SECRET },
      onEvent: (event) => events.push(event),
    });
    await conversation.sendMessage('go');
    const thrown = await conversation.run().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    await conversation.close();
    const printed = inspect(thrown, { depth: Number.POSITIVE_INFINITY, showHidden: true });
    expect(printed).toContain('attempt 1: token <secret-hidden> refused');
    const spellings = [SECRET, Buffer.from(SECRET).toString('base64'), encodeURIComponent(SECRET)];
    const everything = `${printed}\n${JSON.stringify(events)}\n${await allFiles(join(dir, 'data'))}`;
    expect(spellings.filter((spelled) => everything.includes(spelled))).toEqual([]);
  });
});
