import { realpath } from 'node:fs/promises';
import { SecretRegistry } from '@x/agent';
import type { ServerConfig } from '../config/server-config.js';
import type { ConversationManager } from '../conversations/conversation-manager.js';
import { serverDirectories } from '../security/server-directories.js';
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
  // The server's own directories, hidden whole even with a blank in their paths (a path in the workspace, which the
  // default one lies in the data directory, stays readable). Any other absolute path outside the workspace is hidden
  // by its shape.
  let directories: Promise<string[]> | undefined;
  let workspaceRoots: Promise<string[]> | undefined;
  return async (error, conversationId) => {
    // The workspace root may be a symlink: a Node error names the path it resolved.
    workspaceRoots ??= realpath(options.workspaceRoot).then(
      (real) => [options.workspaceRoot, real],
      () => [options.workspaceRoot],
    );
    directories ??= serverDirectories({ dataDir: config.dataDir });
    return exceptionText(error, {
      workspaceRoots: await workspaceRoots,
      directories: await directories,
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
