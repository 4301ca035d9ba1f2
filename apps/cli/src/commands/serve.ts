import { join } from 'node:path';
import type { ServerConfigInput } from '@x/server';
import type { CliContext } from '../context.js';
import { expandHome } from '../data-dir.js';
import { UsageError } from '../errors/usage-error.js';

export interface ServeOptions {
  host?: string;
  port?: number;
  dataDir?: string;
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
  logLevel?: ServerConfigInput['logLevel'];
}

/** Runs the server until Ctrl-C / SIGTERM, which shut it down gracefully. */
export async function serveCommand(context: CliContext, options: ServeOptions): Promise<number> {
  const { InsecureBindError, resolveServerConfig, startServer } = await import('@x/server');
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
      s3,
      ...(options.databaseUrl === undefined ? {} : { databaseUrl: options.databaseUrl }),
      logLevel: options.logLevel ?? (env.X_SERVER_LOG_LEVEL as ServerConfigInput['logLevel']) ?? 'warn',
      insecureNoKey: options.insecureNoKey === true,
      allowScriptedAgents: options.testing === true,
    });
  } catch (error) {
    throw new UsageError(`Invalid server configuration: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (options.apiKey !== undefined) config.apiKeys = [...config.apiKeys, ...options.apiKey];
  if (options.allowedHost !== undefined) config.allowedHosts = [...config.allowedHosts, ...options.allowedHost];
  if (options.allowedOrigin !== undefined) config.allowedOrigins = [...config.allowedOrigins, ...options.allowedOrigin];

  return new Promise<number>((resolve, reject) => {
    startServer(config, { exit: resolve }).then(
      (server) => {
        const c = output.colors;
        output.line(`${c.green('●')} ${c.bold('x server')} listening on ${c.cyan(server.url)}`);
        const storage =
          config.databaseUrl !== undefined
            ? server.manager.store.describe('')
            : config.s3 === undefined
              ? join(config.dataDir, 'conversations')
              : `s3://${config.s3.bucket}/${config.s3.prefix}`;
        output.line(`  ${c.dim('conversations'.padEnd(14))}${storage}`);
        output.line(
          `  ${c.dim('auth'.padEnd(14))}${config.apiKeys.length === 0 ? (config.insecureNoKey ? c.yellow('none, beyond loopback (--insecure-no-key)') : 'none (loopback only)') : `${config.apiKeys.length} session key(s)`}`,
        );
        if (config.allowScriptedAgents) {
          output.line(`  ${c.dim('testing'.padEnd(14))}${c.yellow('scripted agents accepted (--testing)')}`);
        }
        output.line(`  ${c.dim('OpenAPI'.padEnd(14))}${server.url}/openapi.json`);
        output.line(c.dim('  Follow a conversation with `x tail <url> <id>`. Stop with Ctrl-C.'));
      },
      (error: unknown) => {
        reject(InsecureBindError.isInstance(error) ? new UsageError((error as Error).message) : error);
      },
    );
  });
}
