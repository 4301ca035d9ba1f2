import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ServerConfigInput } from '@x/server';
import { commandName } from '../command-name.js';
import { type CliContext, logVerbose } from '../context.js';
import { expandHome } from '../data-dir.js';
import { UsageError } from '../errors/usage-error.js';
import { createPrettyLogStream } from '../render/pretty-log.js';

export interface ServeOptions {
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
  s3Bucket?: string;
  s3Prefix?: string;
  s3Region?: string;
  s3Endpoint?: string;
  s3ForcePathStyle?: boolean;
  databaseUrl?: string;
  interruptedActions?: ServerConfigInput['interruptedActions'];
  logLevel?: ServerConfigInput['logLevel'];
  unsandboxed?: boolean;
  /** A JSON file: the create body of conversations the MCP face starts without one (`mcpConversation`). */
  mcpConversation?: string;
}

/**
 * Runs the server until Ctrl-C / SIGTERM, which shut it down gracefully. The banner goes to stderr; stdout
 * carries only the server log: JSON lines (one record a line, for log collectors) unless stdout is a
 * terminal, which gets them as readable lines.
 */
export async function serveCommand(context: CliContext, options: ServeOptions): Promise<number> {
  const { InsecureBindError, resolveServerConfig, setupTelemetryFromEnv, startServer } = await import('@x/server');
  const { env, output } = context;
  const dataDir =
    options.dataDir ?? (env.X_SERVER_DATA_DIR === undefined && env.X_HOME ? join(env.X_HOME, 'server') : undefined);
  const s3 =
    options.s3Bucket === undefined
      ? undefined
      : {
          bucket: options.s3Bucket,
          ...(options.s3Prefix === undefined ? {} : { prefix: options.s3Prefix }),
          ...(options.s3Region === undefined ? {} : { region: options.s3Region }),
          ...(options.s3Endpoint === undefined ? {} : { endpoint: options.s3Endpoint }),
          forcePathStyle: options.s3ForcePathStyle === true,
        };
  if (s3 === undefined && (options.s3Prefix ?? options.s3Region ?? options.s3Endpoint) !== undefined) {
    throw new UsageError('The --s3-* options need --s3-bucket.');
  }
  if (s3 !== undefined && options.databaseUrl !== undefined) {
    throw new UsageError('Choose one of --s3-bucket and --database-url.');
  }
  let config: ReturnType<typeof resolveServerConfig>;
  try {
    config = resolveServerConfig(env, {
      host: options.host,
      port: options.port,
      dataDir: dataDir === undefined ? undefined : expandHome(dataDir),
      workspaceRoot: options.workspaceRoot === undefined ? undefined : expandHome(options.workspaceRoot),
      uploadLimit: options.uploadLimit,
      s3,
      ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
      ...(options.interruptedActions === undefined ? {} : { interruptedActions: options.interruptedActions }),
      logLevel:
        options.logLevel ??
        (env.X_SERVER_LOG_LEVEL as ServerConfigInput['logLevel']) ??
        (context.verbose === true ? 'info' : 'warn'),
      insecureNoKey: options.insecureNoKey === true,
      allowScriptedAgents: options.testing === true,
      ...(options.unsandboxed === true ? { unsandboxed: true } : {}),
      ...(options.mcpConversation === undefined ? {} : { mcpConversation: readJsonFile(options.mcpConversation) }),
    });
  } catch (error) {
    throw new UsageError(`Invalid server configuration: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (options.apiKey !== undefined) config.apiKeys = [...config.apiKeys, ...options.apiKey];
  if (options.allowedHost !== undefined) config.allowedHosts = [...config.allowedHosts, ...options.allowedHost];
  if (options.allowedOrigin !== undefined) config.allowedOrigins = [...config.allowedOrigins, ...options.allowedOrigin];

  // OTLP export when OTEL_EXPORTER_OTLP_* is set (the SDK is loaded only then).
  const telemetry = await setupTelemetryFromEnv();
  if (telemetry.tracesUrl !== undefined) logVerbose(context, `exporting spans to ${telemetry.tracesUrl}`);
  if (telemetry.metricsUrl !== undefined) logVerbose(context, `exporting metrics to ${telemetry.metricsUrl}`);
  const exit = (code: number): Promise<number> =>
    telemetry.shutdown().then(
      () => code,
      () => code,
    );

  return new Promise<number>((resolve, reject) => {
    const pretty = process.stdout.isTTY === true;
    const logStream = pretty ? createPrettyLogStream((text) => process.stdout.write(text), output.colors) : undefined;
    startServer(config, {
      exit: (code) => void exit(code).then(resolve),
      ...(logStream === undefined ? {} : { logStream }),
    }).then(
      (server) => {
        const c = output.errorColors;
        const line = (text = ''): void => output.error(text);
        line(`${c.green('●')} ${c.bold('x server')} listening on ${c.cyan(server.url)}`);
        if (server.viewer) {
          const key = config.apiKeys.length === 0 ? '' : c.dim(' (it asks for the session key)');
          line(`  ${c.dim('viewer'.padEnd(14))}${c.cyan(`${server.url}/`)}${key}`);
        }
        const storage =
          config.databaseUrl !== undefined
            ? server.manager.store.describe('')
            : config.s3 === undefined
              ? join(config.dataDir, 'conversations')
              : `s3://${config.s3.bucket}/${config.s3.prefix}`;
        line(`  ${c.dim('conversations'.padEnd(14))}${storage}`);
        line(`  ${c.dim('workspaces'.padEnd(14))}${server.workspaceRoot}`);
        line(
          `  ${c.dim('auth'.padEnd(14))}${config.apiKeys.length === 0 ? (config.insecureNoKey ? c.yellow('none, beyond loopback (--insecure-no-key)') : 'none (loopback only)') : `${config.apiKeys.length} session key(s)`}`,
        );
        const sandbox =
          server.sandboxing.mode === 'sandboxed'
            ? 'bubblewrap (per conversation; request field `sandbox`)'
            : server.sandboxing.mode === 'unsandboxed'
              ? c.yellow('NONE: tools run with the server’s authority (--unsandboxed)')
              : c.red(`unavailable (${server.sandboxing.reason}): tools are refused; see --unsandboxed`);
        line(`  ${c.dim('sandbox'.padEnd(14))}${sandbox}`);
        if (config.allowScriptedAgents) {
          line(`  ${c.dim('testing'.padEnd(14))}${c.yellow('scripted agents accepted (--testing)')}`);
        }
        line(`  ${c.dim('API docs'.padEnd(14))}${server.url}/docs ${c.dim(`(OpenAPI: ${server.url}/openapi.json)`)}`);
        line(`  ${c.dim('log'.padEnd(14))}${pretty ? 'below' : 'JSON lines on stdout'} (--log-level)`);
        if (telemetry.tracesUrl !== undefined || telemetry.metricsUrl !== undefined) {
          line(`  ${c.dim('telemetry'.padEnd(14))}OTLP ${telemetry.tracesUrl ?? telemetry.metricsUrl}`);
        }
        line(c.dim(`  Follow a conversation with \`${commandName()} tail <url> <id>\`. Stop with Ctrl-C.`));
      },
      (error: unknown) => {
        void telemetry.shutdown();
        reject(InsecureBindError.isInstance(error) ? new UsageError((error as Error).message) : error);
      },
    );
  });
}

/** `--mcp-conversation <file>`: its JSON (the schema is checked with the rest of the configuration). */
function readJsonFile(file: string): ServerConfigInput['mcpConversation'] {
  let text: string;
  try {
    text = readFileSync(expandHome(file), 'utf8');
  } catch (error) {
    throw new UsageError(`--mcp-conversation: cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as ServerConfigInput['mcpConversation'];
  } catch (error) {
    throw new UsageError(`--mcp-conversation: ${file} is not JSON: ${(error as Error).message}`);
  }
}
