import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { startConversationRequestSchema } from '../api/request-schemas.js';
import { normalizeOrigin, parseAuthority } from '../security/host-origin.js';
import { describeSetting, flagFromEnv, integerFromEnv, jsonFileFromEnv, listFromEnv } from './environment-values.js';
import { ServerConfigError } from './server-config-error.js';

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
  /**
   * The most live MCP sessions one principal (session key) may hold, within `mcpMaxSessions`, so one key cannot
   * take every slot: its `initialize` beyond them gets the same 503 naming this limit. Unset: a quarter of
   * `mcpMaxSessions` (at least 1) on a server with keys, all of it on one without (its callers are one principal,
   * `local`). Env `X_SERVER_MCP_MAX_SESSIONS_PER_PRINCIPAL`.
   */
  mcpMaxSessionsPerPrincipal: z.number().int().min(1).optional(),
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
  const forcePathStyle = flagFromEnv(
    's3.forcePathStyle',
    'X_SERVER_S3_FORCE_PATH_STYLE',
    env.X_SERVER_S3_FORCE_PATH_STYLE,
  );
  return {
    bucket: env.X_SERVER_S3_BUCKET,
    ...(env.X_SERVER_S3_PREFIX === undefined ? {} : { prefix: env.X_SERVER_S3_PREFIX }),
    ...(env.X_SERVER_S3_REGION === undefined ? {} : { region: env.X_SERVER_S3_REGION }),
    ...(env.X_SERVER_S3_ENDPOINT === undefined ? {} : { endpoint: env.X_SERVER_S3_ENDPOINT }),
    ...(forcePathStyle === undefined ? {} : { forcePathStyle }),
  };
}

type Setting = keyof ServerConfigInput;

/** Settings an environment variable sets as written (the schema checks the value). */
const TEXT_VARIABLES = {
  host: 'X_SERVER_HOST',
  dataDir: 'X_SERVER_DATA_DIR',
  workspaceRoot: 'X_SERVER_WORKSPACE_ROOT',
  databaseUrl: 'X_SERVER_DATABASE_URL',
  eventLogLayout: 'X_SERVER_EVENT_LOG_LAYOUT',
  interruptedActions: 'X_SERVER_INTERRUPTED_ACTIONS',
  openaiApiKey: 'OPENAI_API_KEY',
  logLevel: 'X_SERVER_LOG_LEVEL',
  a2aSigningKey: 'X_SERVER_A2A_SIGNING_KEY',
  signingKey: 'X_SERVER_SIGNING_KEY',
} as const satisfies Partial<Record<Setting, string>>;

/** Settings an environment variable sets as a whole number. */
const INTEGER_VARIABLES = {
  port: 'X_SERVER_PORT',
  uploadLimit: 'X_SERVER_UPLOAD_LIMIT',
  leaseTtlMs: 'X_SERVER_LEASE_TTL_MS',
  recoveryIntervalMs: 'X_SERVER_RECOVERY_INTERVAL_MS',
  idleReleaseMs: 'X_SERVER_IDLE_RELEASE_MS',
  maxOpenConversations: 'X_SERVER_MAX_OPEN_CONVERSATIONS',
  bodyLimit: 'X_SERVER_BODY_LIMIT',
  mcpMaxSessions: 'X_SERVER_MCP_MAX_SESSIONS',
  mcpMaxSessionsPerPrincipal: 'X_SERVER_MCP_MAX_SESSIONS_PER_PRINCIPAL',
} as const satisfies Partial<Record<Setting, string>>;

/** Settings an environment variable names the JSON file of. */
const JSON_FILE_VARIABLES = {
  mcpConversation: 'X_SERVER_MCP_CONVERSATION',
  openaiModels: 'X_SERVER_OPENAI_MODELS',
} as const satisfies Partial<Record<Setting, string>>;

/** The settings the environment gives, and the variable each came from (named when the value is refused). */
function configFromEnv(env: NodeJS.ProcessEnv): {
  values: Partial<Record<Setting, unknown>>;
  variables: Partial<Record<Setting, string>>;
} {
  const values: Partial<Record<Setting, unknown>> = {};
  const variables: Partial<Record<Setting, string>> = {};
  const set = (setting: Setting, variable: string, value: unknown): void => {
    if (value === undefined) return;
    values[setting] = value;
    variables[setting] = variable;
  };
  for (const [setting, variable] of Object.entries(TEXT_VARIABLES)) {
    set(setting as Setting, variable, env[variable] || undefined);
  }
  for (const [setting, variable] of Object.entries(INTEGER_VARIABLES)) {
    set(setting as Setting, variable, integerFromEnv(setting, variable, env[variable]));
  }
  for (const [setting, variable] of Object.entries(JSON_FILE_VARIABLES)) {
    set(setting as Setting, variable, jsonFileFromEnv(setting, variable, env[variable]));
  }
  set('s3', 'X_SERVER_S3_BUCKET', s3FromEnv(env));
  set('apiKeys', 'SESSION_API_KEY', keysFromEnv(env));
  set(
    'secretKey',
    env.X_SECRET_KEY ? 'X_SECRET_KEY' : 'OH_SECRET_KEY',
    env.X_SECRET_KEY || env.OH_SECRET_KEY || undefined,
  );
  set('allowedHosts', 'X_SERVER_ALLOWED_HOSTS', listFromEnv(env.X_SERVER_ALLOWED_HOSTS));
  set('allowedOrigins', 'X_SERVER_ALLOWED_ORIGINS', listFromEnv(env.X_SERVER_ALLOWED_ORIGINS));
  set(
    'unsandboxed',
    'X_SERVER_UNSANDBOXED',
    flagFromEnv('unsandboxed', 'X_SERVER_UNSANDBOXED', env.X_SERVER_UNSANDBOXED),
  );
  return { values, variables };
}

/**
 * The effective configuration: `overrides` (CLI flags, programmatic options) win over the environment,
 * which wins over the defaults. Throws `ServerConfigError` naming the setting that is wrong (and the environment
 * variable it came from, when it came from one), with the schema's `ZodError` as its cause.
 */
export function resolveServerConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<ServerConfigInput> = {},
): ServerConfig {
  const fromEnv = configFromEnv(env);
  const defined = Object.fromEntries(Object.entries(overrides).filter(([, value]) => value !== undefined));
  const parsed = serverConfigSchema.safeParse({ ...fromEnv.values, ...defined });
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => {
    const setting = issue.path.length === 0 ? 'config' : issue.path.map(String).join('.');
    const top = String(issue.path[0]) as Setting;
    // A value the overrides gave hides the environment's: name the variable only when its value was used.
    const variable = top in defined ? undefined : fromEnv.variables[top];
    return { setting, variable, text: `${describeSetting(setting, variable)}: ${issue.message}` };
  });
  const first = problems[0] as (typeof problems)[number];
  throw new ServerConfigError({
    setting: first.setting,
    variable: first.variable,
    message: problems.map((problem) => problem.text).join('; '),
    cause: parsed.error,
  });
}
