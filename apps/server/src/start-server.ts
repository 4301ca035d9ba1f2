import type { ServerConfigInput } from './config/server-config.js';
import { type BuildServerOptions, type BuiltServer, buildServer } from './server.js';

export interface StartedServer extends BuiltServer {
  url: string;
}

export interface StartServerOptions extends BuildServerOptions {
  /** Install SIGINT/SIGTERM handlers that shut down gracefully and exit 0. Default true. */
  handleSignals?: boolean;
  /** Called instead of `process.exit` after a signal-triggered shutdown (tests, embedding). */
  exit?: (code: number) => void;
}

/**
 * Builds and starts the server. On SIGINT/SIGTERM it stops accepting requests, pauses running
 * conversations, waits (bounded) for their runs to end, checkpoints, closes sockets and exits 0
 * (1 if shutdown itself failed). A second signal exits at once.
 */
export async function startServer(
  config: ServerConfigInput = {},
  options: StartServerOptions = {},
): Promise<StartedServer> {
  const server = await buildServer(config, options);
  const { url } = await server.listen();
  server.app.log.info({ url }, 'server listening');
  if (options.handleSignals ?? true) {
    const exit = options.exit ?? ((code: number) => process.exit(code));
    let signalled = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (signalled) {
        exit(1);
        return;
      }
      signalled = true;
      server.app.log.info({ signal }, 'signal received: shutting down');
      server.close().then(
        () => {
          process.off('SIGINT', onSignal);
          process.off('SIGTERM', onSignal);
          exit(0);
        },
        (error: unknown) => {
          server.app.log.error({ err: error }, 'shutdown failed');
          exit(1);
        },
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  return { ...server, url };
}
