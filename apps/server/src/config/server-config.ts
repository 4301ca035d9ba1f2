import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { startConversationRequestSchema } from '../api/request-schemas.js';
import { normalizeOrigin, parseAuthority } from '../security/host-origin.js';

/** S3 (or S3-compatible) storage for conversations instead of the local data directory. */
export const s3ConfigSchema = z.object({
  bucket: z.string().min(1),
  /** Key prefix under which conversation directories live. */
  prefix: z.string().default('conversations'),
  region: z.string().optional(),
  /** For MinIO, moto, R2 and other S3-compatible endpoints. */
  endpoint: z.string().optional(),
  forcePathStyle: z.boolean().default(false),
});
export type S3Config = z.infer<typeof s3ConfigSchema>;

export const logLevelSchema = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

export const serverConfigSchema = z.object({
  /** Interface to bind. Loopback by default: exposing the server is a deliberate choice. */
  host: z.string().min(1).default('127.0.0.1'),
  /** 0 picks a free port. */
  port: z.number().int().min(0).max(65535).default(8000),
  /** Root of the local store (`<dataDir>/conversations/<id hex>/`) and of default workspaces. */
  dataDir: z
    .string()
    .min(1)
    .default(join(homedir(), '.x', 'server')),
  /**
   * The directory every conversation's workspace lies in (default `<dataDir>/workspaces`). A create request's
   * `workspace.working_dir` outside it is refused; the file routes reach nothing outside it.
   */
  workspaceRoot: z.string().min(1).optional(),
  /** Largest file `/api/file/upload` accepts, in bytes (413 above); the upload streams to disk. Default 100 MiB. */
  uploadLimit: z
    .number()
    .int()
    .positive()
    .default(100 * 1024 * 1024),
  /** Store conversations on S3 instead of `dataDir`. */
  s3: s3ConfigSchema.optional(),
  /**
   * `postgres://…`: conversations (events, snapshots, meta) and run ownership in PostgreSQL, shared by any
   * number of replicas. Workspaces stay under `dataDir`.
   */
  databaseUrl: z.string().min(1).optional(),
  /**
   * What a run that takes over from an owner that died mid-action does with the action it was executing
   * (`ConversationOptions.interruptedActions`): `report` (answer it as interrupted, effect unknown, not run
   * again), `rerun`, or `confirm` (wait for a human). With `databaseUrl` the default is `report`. A single server
   * (local files or S3) without it keeps the reference's restart behaviour (§11.5: a run found `running` on
   * restart is recorded as interrupted and the conversation set to `error`); with it, that server resumes such
   * runs at start-up and handles their in-flight action this way.
   */
  interruptedActions: z.enum(['report', 'rerun', 'confirm']).optional(),
  /**
   * The layout new conversations' event logs are created with in a file store (`EventLog`'s `layout`, see the
   * @x/store README, "Segment layout"): `files` (default, a slot claim per event) or `segment` (one append-only
   * file per conversation as the commit point, the reference's event files derived from it; local data dir
   * only, not S3). A conversation keeps the layout it was created with. Ignored with `databaseUrl`.
   */
  eventLogLayout: z.enum(['files', 'segment']).default('files'),
  /** With `databaseUrl`: how long a run's lease outlives its owner's last renewal (the takeover delay), in ms. */
  leaseTtlMs: z.number().int().min(100).default(15_000),
  /**
   * With `databaseUrl`: how often this replica looks for runs whose owner died (lease expired, not released)
   * and resumes them, in ms (each wait jittered ±25%). 0 turns the sweep off.
   */
  recoveryIntervalMs: z.number().int().nonnegative().default(5_000),
  /** Session API keys; empty = no authentication. */
  apiKeys: z.array(z.string().min(1)).default([]),
  /**
   * Who may decide on pending actions (`POST .../decisions`): principals `api-key:<first 12 hex of the key's
   * SHA-256>` (or `local` without keys). Unset: every authenticated caller.
   */
  approvalDeciders: z.array(z.string().min(1)).optional(),
  /** Encrypts stored secrets (LLM api keys, conversation secrets) with Fernet, as the reference's OH_SECRET_KEY. */
  secretKey: z.string().min(1).optional(),
  /** Used for conversations whose stored api_key was redacted (no secret key) or none was given. */
  openaiApiKey: z.string().min(1).optional(),
  /** Largest accepted request body in bytes (413 above). */
  bodyLimit: z
    .number()
    .int()
    .positive()
    .default(1024 * 1024),
  logLevel: logLevelSchema.default('info'),
  /** How long shutdown waits for paused runs to reach the end of their current step. */
  shutdownTimeoutMs: z.number().int().nonnegative().default(30_000),
  /**
   * Open conversations unused this long (ms) are released: closed, their events and processes let go, and
   * resumed from the store on their next use. 0 keeps every opened conversation open.
   */
  idleReleaseMs: z.number().int().nonnegative().default(120_000),
  /** More open conversations than this and the least recently used idle ones are released early. */
  maxOpenConversations: z.number().int().min(1).default(256),
  /**
   * `Host` values accepted besides the defaults (`localhost`, `127.0.0.1`, `[::1]` and the bind address, with
   * the server's port): `name` (any port) or `name:port`, e.g. the name of a reverse proxy. `*` accepts any Host.
   */
  allowedHosts: z
    .array(
      z
        .string()
        .min(1)
        // `*.example` would match only a Host spelled with a literal `*`: refused rather than taken as a pattern.
        .refine((entry) => entry === '*' || (!entry.includes('*') && parseAuthority(entry.trim()) !== undefined), {
          message:
            'not a host: expected `name` or `name:port` (e.g. `proxy.example:8443`), without scheme, path or pattern',
        }),
    )
    .default([]),
  /** Cross-origin `Origin`s accepted (same-origin requests always are), e.g. `https://app.example`. `*` accepts any. */
  allowedOrigins: z
    .array(
      z
        .string()
        .min(1)
        .refine((entry) => entry === '*' || normalizeOrigin(entry.trim()) !== undefined, {
          message: 'not an origin: expected `http(s)://name[:port]` (e.g. `https://app.example`), without path',
        }),
    )
    .default([]),
  /** Accept `agent.x_offline_script` (scripted agents that run any command without a model): test servers only. */
  allowScriptedAgents: z.boolean().default(false),
  /**
   * The create body (`StartConversationRequest`) of A2A tasks whose first message brings none in
   * `metadata.conversation`; its tools are the agent card's skills.
   */
  a2aConversation: startConversationRequestSchema.optional(),
  /**
   * Path of an Ed25519 private key (PEM, the key `x verify --sign` takes): the A2A agent card is served signed with
   * it (`signatures`, a JWS per A2A v1.0 §8.4). Env `X_SERVER_A2A_SIGNING_KEY`.
   */
  a2aSigningKey: z.string().min(1).optional(),
  /**
   * Path of an Ed25519 private key (PEM, as `x run --signing-key` takes): every event of the conversations this
   * server runs is signed with it, its signer named by `did:key` in the verify route. Env `X_SERVER_SIGNING_KEY`.
   */
  signingKey: z.string().min(1).optional(),
  /**
   * The OpenAI-compatible gateway's models (`GET /v1/models`): model id → the create body
   * (`StartConversationRequest`) of the conversation a chat completion naming it starts. Empty: no models.
   * Env `X_SERVER_OPENAI_MODELS`: the path of a JSON file holding this object.
   */
  openaiModels: z.record(z.string().min(1), startConversationRequestSchema).default({}),
  /**
   * The create body (`StartConversationRequest`) of conversations the MCP face's `start_conversation` makes when
   * the call brings none in `arguments.conversation`. Env `X_SERVER_MCP_CONVERSATION`: the path of a JSON file
   * holding it.
   */
  mcpConversation: startConversationRequestSchema.optional(),
  /**
   * The most live MCP sessions (`/api/mcp`); an `initialize` beyond them gets HTTP 503 with a JSON-RPC error naming
   * the limit, and no live session is ended for it (idle ones expire as always). Env `X_SERVER_MCP_MAX_SESSIONS`.
   */
  mcpMaxSessions: z.number().int().min(1).default(100),
  /** Allow listening beyond loopback without a session key. Dangerous: anyone who reaches the port runs commands. */
  insecureNoKey: z.boolean().default(false),
  /**
   * Run the processes of every conversation and of the shell route WITHOUT a sandbox, with the server's authority
   * (`x serve --unsandboxed`, env X_SERVER_UNSANDBOXED=1). Without it, a server on a host where bubblewrap cannot
   * run refuses to run tools (`SandboxRequiredError`, 503).
   */
  unsandboxed: z.boolean().default(false),
});
export type ServerConfig = z.infer<typeof serverConfigSchema>;

/** The workspace root a configuration names: `workspaceRoot`, or `<dataDir>/workspaces`, made absolute. */
export function workspaceRootOf(config: Pick<ServerConfig, 'dataDir' | 'workspaceRoot'>): string {
  return resolve(config.workspaceRoot ?? join(config.dataDir, 'workspaces'));
}
export type ServerConfigInput = z.input<typeof serverConfigSchema>;

/** Session keys from `SESSION_API_KEY` and `OH_SESSION_API_KEYS_0`, `_1`, … (contiguous, as the reference). */
function keysFromEnv(env: NodeJS.ProcessEnv): string[] {
  const keys: string[] = [];
  if (env.SESSION_API_KEY) keys.push(env.SESSION_API_KEY);
  for (let index = 0; env[`OH_SESSION_API_KEYS_${index}`] !== undefined; index++) {
    const key = env[`OH_SESSION_API_KEYS_${index}`];
    if (key) keys.push(key);
  }
  return keys;
}

function s3FromEnv(env: NodeJS.ProcessEnv): ServerConfigInput['s3'] {
  if (!env.X_SERVER_S3_BUCKET) return undefined;
  return {
    bucket: env.X_SERVER_S3_BUCKET,
    ...(env.X_SERVER_S3_PREFIX === undefined ? {} : { prefix: env.X_SERVER_S3_PREFIX }),
    ...(env.X_SERVER_S3_REGION === undefined ? {} : { region: env.X_SERVER_S3_REGION }),
    ...(env.X_SERVER_S3_ENDPOINT === undefined ? {} : { endpoint: env.X_SERVER_S3_ENDPOINT }),
    ...(env.X_SERVER_S3_FORCE_PATH_STYLE === undefined
      ? {}
      : { forcePathStyle: env.X_SERVER_S3_FORCE_PATH_STYLE === 'true' || env.X_SERVER_S3_FORCE_PATH_STYLE === '1' }),
  };
}

function listFromEnv(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * A configuration value from a JSON file named by an environment variable (validated with the rest of the
 * configuration): `X_SERVER_OPENAI_MODELS` (`{ "<model id>": <StartConversationRequest>, ... }`) and
 * `X_SERVER_MCP_CONVERSATION` (a `StartConversationRequest`). Throws naming the variable and the file when it
 * cannot be read or is not JSON.
 */
function jsonFileFromEnv(variable: string, path: string | undefined): unknown {
  if (path === undefined || path === '') return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new Error(`${variable}: cannot read ${path}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${variable}: ${path} is not JSON: ${(error as Error).message}`);
  }
}

function portFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  return Number(value);
}

/**
 * The effective configuration: `overrides` (CLI flags, programmatic options) win over the environment,
 * which wins over the defaults. Throws a `ZodError` naming the bad field.
 */
export function resolveServerConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<ServerConfigInput> = {},
): ServerConfig {
  const fromEnv: Partial<ServerConfigInput> = {
    ...(env.X_SERVER_HOST ? { host: env.X_SERVER_HOST } : {}),
    ...(portFromEnv(env.X_SERVER_PORT) === undefined ? {} : { port: portFromEnv(env.X_SERVER_PORT) }),
    ...(env.X_SERVER_DATA_DIR ? { dataDir: env.X_SERVER_DATA_DIR } : {}),
    ...(env.X_SERVER_WORKSPACE_ROOT ? { workspaceRoot: env.X_SERVER_WORKSPACE_ROOT } : {}),
    ...(portFromEnv(env.X_SERVER_UPLOAD_LIMIT) === undefined
      ? {}
      : { uploadLimit: portFromEnv(env.X_SERVER_UPLOAD_LIMIT) }),
    ...(s3FromEnv(env) === undefined ? {} : { s3: s3FromEnv(env) }),
    ...(env.X_SERVER_DATABASE_URL ? { databaseUrl: env.X_SERVER_DATABASE_URL } : {}),
    ...(env.X_SERVER_EVENT_LOG_LAYOUT
      ? { eventLogLayout: env.X_SERVER_EVENT_LOG_LAYOUT as ServerConfig['eventLogLayout'] }
      : {}),
    ...(env.X_SERVER_INTERRUPTED_ACTIONS
      ? { interruptedActions: env.X_SERVER_INTERRUPTED_ACTIONS as ServerConfig['interruptedActions'] }
      : {}),
    ...(portFromEnv(env.X_SERVER_LEASE_TTL_MS) === undefined
      ? {}
      : { leaseTtlMs: portFromEnv(env.X_SERVER_LEASE_TTL_MS) }),
    ...(portFromEnv(env.X_SERVER_RECOVERY_INTERVAL_MS) === undefined
      ? {}
      : { recoveryIntervalMs: portFromEnv(env.X_SERVER_RECOVERY_INTERVAL_MS) }),
    ...(portFromEnv(env.X_SERVER_IDLE_RELEASE_MS) === undefined
      ? {}
      : { idleReleaseMs: portFromEnv(env.X_SERVER_IDLE_RELEASE_MS) }),
    ...(portFromEnv(env.X_SERVER_MAX_OPEN_CONVERSATIONS) === undefined
      ? {}
      : { maxOpenConversations: portFromEnv(env.X_SERVER_MAX_OPEN_CONVERSATIONS) }),
    apiKeys: keysFromEnv(env),
    ...(env.X_SECRET_KEY || env.OH_SECRET_KEY ? { secretKey: env.X_SECRET_KEY || env.OH_SECRET_KEY } : {}),
    ...(env.OPENAI_API_KEY ? { openaiApiKey: env.OPENAI_API_KEY } : {}),
    ...(portFromEnv(env.X_SERVER_BODY_LIMIT) === undefined ? {} : { bodyLimit: portFromEnv(env.X_SERVER_BODY_LIMIT) }),
    ...(env.X_SERVER_LOG_LEVEL ? { logLevel: env.X_SERVER_LOG_LEVEL as ServerConfig['logLevel'] } : {}),
    ...(listFromEnv(env.X_SERVER_ALLOWED_HOSTS) === undefined
      ? {}
      : { allowedHosts: listFromEnv(env.X_SERVER_ALLOWED_HOSTS) }),
    ...(env.X_SERVER_MCP_CONVERSATION
      ? {
          mcpConversation: jsonFileFromEnv(
            'X_SERVER_MCP_CONVERSATION',
            env.X_SERVER_MCP_CONVERSATION,
          ) as ServerConfigInput['mcpConversation'],
        }
      : {}),
    ...(portFromEnv(env.X_SERVER_MCP_MAX_SESSIONS) === undefined
      ? {}
      : { mcpMaxSessions: portFromEnv(env.X_SERVER_MCP_MAX_SESSIONS) }),
    ...(env.X_SERVER_OPENAI_MODELS
      ? {
          openaiModels: jsonFileFromEnv(
            'X_SERVER_OPENAI_MODELS',
            env.X_SERVER_OPENAI_MODELS,
          ) as ServerConfigInput['openaiModels'],
        }
      : {}),
    ...(env.X_SERVER_A2A_SIGNING_KEY ? { a2aSigningKey: env.X_SERVER_A2A_SIGNING_KEY } : {}),
    ...(env.X_SERVER_SIGNING_KEY ? { signingKey: env.X_SERVER_SIGNING_KEY } : {}),
    ...(env.X_SERVER_UNSANDBOXED === '1' || env.X_SERVER_UNSANDBOXED === 'true' ? { unsandboxed: true } : {}),
    ...(listFromEnv(env.X_SERVER_ALLOWED_ORIGINS) === undefined
      ? {}
      : { allowedOrigins: listFromEnv(env.X_SERVER_ALLOWED_ORIGINS) }),
  };
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  return serverConfigSchema.parse({ ...fromEnv, ...defined });
}
