import { realpath } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import { SecretRegistry } from '@x/agent';
import type { ServerConfig } from '../config/server-config.js';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { exceptionText } from './exception-text.js';

export interface ServerExceptionTextOptions {
  config: Pick<ServerConfig, 'apiKeys' | 'openaiApiKey' | 'secretKey' | 'dataDir'>;
  workspaceRoot: string;
  /** The conversations, once the server has them (a failure before that has no conversation secrets to mask). */
  manager: () => ConversationManager | undefined;
}

/**
 * `describeException` of the server's error handler: `exceptionText` knowing the server's directories and secrets.
 * Masked are the server's own keys (session API keys, the OpenAI API key, the secret key) and, for a request on a
 * conversation open in this process, that conversation's secrets; a conversation is never opened for it.
 */
export function serverExceptionText(
  options: ServerExceptionTextOptions,
): (error: unknown, conversationId: string | undefined) => Promise<string> {
  const { config } = options;
  const serverSecrets = new SecretRegistry(
    Object.fromEntries(
      [...config.apiKeys, config.openaiApiKey, config.secretKey]
        .filter((value) => value !== undefined)
        .map((value, index) => [`server_secret_${index}`, value]),
    ),
  );
  // The local store's directory, hidden whole even with a blank in its path (not the data directory: the default
  // workspace root lies in it). Any other absolute path outside the workspace is hidden by its shape.
  const store = join(config.dataDir, 'conversations');
  const directories = [store, resolve(store)].filter((path) => isAbsolute(path));
  let workspaceRoots: Promise<string[]> | undefined;
  return async (error, conversationId) => {
    // The workspace root may be a symlink: a Node error names the path it resolved.
    workspaceRoots ??= realpath(options.workspaceRoot).then(
      (real) => [options.workspaceRoot, real],
      () => [options.workspaceRoot],
    );
    return exceptionText(error, {
      workspaceRoots: await workspaceRoots,
      directories,
      maskSecrets: async (text) => conversationMask(options.manager(), conversationId, serverSecrets.mask(text)),
    });
  };
}

async function conversationMask(
  manager: ConversationManager | undefined,
  conversationId: string | undefined,
  text: string,
): Promise<string> {
  if (manager === undefined || conversationId === undefined) return text;
  const managed = await manager.get(conversationId).catch(() => undefined);
  if (managed === undefined || !managed.isOpen) return text;
  return (await managed.conversation()).maskSecrets(text);
}
