import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliContext } from '../context.js';
import { resolveDataDir } from '../data-dir.js';
import { UsageError } from '../errors/usage-error.js';
import { resolveConversation } from '../resolve-conversation.js';
import { createReadOnlyOverlay, createViewStore, hexFor, type ViewedDirectory } from '../view/index.js';

export interface ViewOptions {
  dataDir?: string;
  port?: number;
  apiKey?: string;
  open?: boolean;
}

function readBaseState(dir: string): unknown {
  try {
    return JSON.parse(readFileSync(join(dir, 'base_state.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Opens the URL in the desktop's browser, if there is one; failing to is not an error (the URL is printed). */
function openInBrowser(url: string): void {
  const command = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
  try {
    const child = spawn(command, [url], { stdio: 'ignore', detached: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // no opener: the printed URL is enough
  }
}

/**
 * `x view [conversation]`: the web viewer over a local conversation directory or the default store,
 * served by an in-process @x/server on loopback (no server needs to be running). The files are only
 * read: whatever the server writes (its meta.json, checkpoints, events of a run started in the page)
 * stays in memory. The session key is
 * random unless given, printed here, and asked for by the page: it never goes into the URL.
 */
export async function viewCommand(
  context: CliContext,
  conversation: string | undefined,
  options: ViewOptions,
): Promise<number> {
  const { buildServer, resolveServerConfig } = await import('@x/server');
  const { createLocalFileStore } = await import('@x/store');
  const { output, env } = context;
  let root: string;
  let only: ViewedDirectory | undefined;
  if (conversation === undefined) {
    root = resolveDataDir(options.dataDir, env);
  } else {
    const source = resolveConversation(conversation, { dataDir: options.dataDir });
    const hex = hexFor(source.name, readBaseState(source.location));
    if (hex === undefined) {
      throw new UsageError(
        `${source.location} has no conversation id (base_state.json with an "id", or a 32-hex directory name).`,
      );
    }
    root = source.parentDir;
    only = { hex, name: source.name };
  }
  const key = options.apiKey ?? randomBytes(18).toString('base64url');
  const config = resolveServerConfig(env, {
    host: '127.0.0.1',
    port: options.port ?? 0,
    logLevel: 'warn',
    dataDir: join(tmpdir(), 'x-view'),
  });
  config.apiKeys = [key];
  const store = createViewStore(createReadOnlyOverlay(createLocalFileStore({ root })), {
    only,
    hasApiKey: Boolean(config.openaiApiKey),
  });
  const server = await buildServer(config, { store });
  const { url } = await server.listen();
  const pageUrl = only === undefined ? `${url}/` : `${url}/#/c/${only.hex}`;
  const c = output.colors;
  output.line(`${c.green('●')} ${c.bold('x view')} on ${c.cyan(pageUrl)}`);
  output.line(`  ${c.dim('conversations'.padEnd(14))}${only === undefined ? root : join(root, only.name)}`);
  output.line(`  ${c.dim('session key'.padEnd(14))}${key}   ${c.dim('(the page asks for it once)')}`);
  output.line(c.dim('  Read-only: nothing is written to these files (what you do in the page lasts until Ctrl-C).'));
  output.line(c.dim('  Stop with Ctrl-C.'));
  if (options.open ?? false) openInBrowser(pageUrl);

  return new Promise<number>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      server.close().then(
        () => resolve(0),
        () => resolve(1),
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}
