#!/usr/bin/env node
import { Command, InvalidArgumentError } from 'commander';
import { resolveServerConfig, type ServerConfigInput } from './config/server-config.js';
import { startServer } from './start-server.js';

function port(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535) throw new InvalidArgumentError('expected 0..65535');
  return parsed;
}

function bytes(value: string): number {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) throw new InvalidArgumentError('expected a positive number of bytes');
  return parsed;
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

const program = new Command('x-server')
  .description('The @x agent server: REST + WebSocket API over persistent conversations')
  .option('--host <host>', 'interface to bind (default 127.0.0.1)')
  .option('--port <port>', 'port, 0 for any free one (default 8000)', port)
  .option('--data-dir <dir>', 'where conversations are stored (default ~/.x/server, env X_SERVER_DATA_DIR)')
  .option('--api-key <key>', 'session API key required on /api (repeatable; env SESSION_API_KEY)', collect)
  .option('--allowed-host <host>', 'also accept this Host header, name or name:port (repeatable)', collect)
  .option('--allowed-origin <origin>', 'also accept requests from pages of this origin (repeatable)', collect)
  .option('--insecure-no-key', 'allow binding beyond loopback without a session key')
  .option('--testing', 'accept scripted offline agents (agent.x_offline_script): tests only')
  .option(
    '--workspace-root <dir>',
    'working directories must lie in it; file routes reach nothing outside (default <data-dir>/workspaces)',
  )
  .option('--upload-limit <bytes>', 'largest file /api/file/upload accepts, 413 above (default 104857600)', bytes)
  .option('--body-limit <bytes>', 'largest request body (default 1048576)', bytes)
  .option('--log-level <level>', 'fatal | error | warn | info | debug | trace | silent')
  .option('--database-url <url>', 'postgres://…: share conversations with other replicas (env X_SERVER_DATABASE_URL)')
  .option(
    '--interrupted-actions <mode>',
    'report | rerun | confirm: a tool call whose run owner died (env X_SERVER_INTERRUPTED_ACTIONS)',
  )
  .action(
    async (flags: {
      host?: string;
      port?: number;
      dataDir?: string;
      workspaceRoot?: string;
      uploadLimit?: number;
      apiKey?: string[];
      allowedHost?: string[];
      allowedOrigin?: string[];
      insecureNoKey?: boolean;
      testing?: boolean;
      bodyLimit?: number;
      logLevel?: string;
      databaseUrl?: string;
      interruptedActions?: string;
    }) => {
      const overrides: Partial<ServerConfigInput> = {
        host: flags.host,
        port: flags.port,
        dataDir: flags.dataDir,
        workspaceRoot: flags.workspaceRoot,
        uploadLimit: flags.uploadLimit,
        bodyLimit: flags.bodyLimit,
        logLevel: flags.logLevel as ServerConfigInput['logLevel'],
        insecureNoKey: flags.insecureNoKey === true,
        allowScriptedAgents: flags.testing === true,
        databaseUrl: flags.databaseUrl,
        interruptedActions: flags.interruptedActions as ServerConfigInput['interruptedActions'],
      };
      const config = resolveServerConfig(process.env, overrides);
      if (flags.apiKey !== undefined) config.apiKeys = [...config.apiKeys, ...flags.apiKey];
      if (flags.allowedHost !== undefined) config.allowedHosts = [...config.allowedHosts, ...flags.allowedHost];
      if (flags.allowedOrigin !== undefined) config.allowedOrigins = [...config.allowedOrigins, ...flags.allowedOrigin];
      const { url } = await startServer(config);
      process.stdout.write(`x-server listening on ${url}\n`);
    },
  );

program.parseAsync(process.argv).catch((error: unknown) => {
  process.stderr.write(`x-server: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
