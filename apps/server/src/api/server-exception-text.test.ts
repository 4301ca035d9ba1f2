import { describe, expect, it } from 'vitest';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { serverExceptionText } from './server-exception-text.js';

// Which secrets a 500's `exception` masks for the conversation a request names: the server's own always, the
// conversation's only when it is open in this process, and a failure with no conversations yet masks the server's.

const SERVER_KEY = 'server-session-key-77';
const CONVERSATION_SECRET = 'conversation-secret-31';

/** A manager holding one conversation, `known`, open or not; `opened` counts the times its conversation was opened. */
function fakeManager(isOpen: boolean): { manager: ConversationManager; opened: () => number } {
  let opened = 0;
  const managed = {
    isOpen,
    async conversation() {
      opened += 1;
      return { maskSecrets: (text: string) => text.replaceAll(CONVERSATION_SECRET, '<masked>') };
    },
  };
  const manager = {
    async get(id: string) {
      return id === 'known' ? managed : undefined;
    },
  } as unknown as ConversationManager;
  return { manager, opened: () => opened };
}

function describer(manager: ConversationManager | undefined) {
  return serverExceptionText({
    config: { apiKeys: [SERVER_KEY], openaiApiKey: undefined, secretKey: undefined, dataDir: '/srv/data' },
    workspaceRoot: '/nonexistent-workspace-root',
    manager: () => manager,
  });
}

const error = new Error(`key ${SERVER_KEY}, token ${CONVERSATION_SECRET}`);

describe('serverExceptionText', () => {
  it("masks an open conversation's secrets and the server's", async () => {
    const { manager } = fakeManager(true);
    expect(await describer(manager)(error, 'known')).toBe('Error: key <secret-hidden>, token <masked>');
  });

  it('masks the server secrets of a request on a conversation before the server has its conversations', async () => {
    expect(await describer(undefined)(error, 'known')).toBe(`Error: key <secret-hidden>, token ${CONVERSATION_SECRET}`);
  });

  it('masks the server secrets of a request on a conversation the server does not know', async () => {
    const { manager } = fakeManager(true);
    expect(await describer(manager)(error, 'unknown')).toBe(`Error: key <secret-hidden>, token ${CONVERSATION_SECRET}`);
  });

  it('never opens a conversation that is not open to mask its secrets', async () => {
    const { manager, opened } = fakeManager(false);
    expect(await describer(manager)(error, 'known')).toBe(`Error: key <secret-hidden>, token ${CONVERSATION_SECRET}`);
    expect(opened()).toBe(0);
  });
});

describe('serverExceptionText hides the server directories', () => {
  it('hides the data directory whole, a blank in it included, and keeps the workspace inside it', async () => {
    const describe = serverExceptionText({
      config: { apiKeys: [], openaiApiKey: undefined, secretKey: undefined, dataDir: '/srv/my data' },
      workspaceRoot: '/srv/my data/workspaces',
      manager: () => undefined,
    });
    const failure = new Error('cannot copy /srv/my data/workspaces/a.txt to /srv/my data/backup/a.txt');
    expect(await describe(failure, undefined)).toBe(
      'Error: cannot copy /srv/my data/workspaces/a.txt to <server path>',
    );
  });
});
