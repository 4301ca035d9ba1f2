import {
  Agent,
  AgentError,
  applyPatchTool,
  type CreateLLMOptions,
  condenserFromJSON,
  createDelegateTool,
  createFileEditorTool,
  createLLM,
  createOfflineLLM,
  createTaskTrackerTool,
  createTerminalTool,
  defaultModel,
  globTool,
  grepTool,
  type LLM,
  maskUrlCredentials,
  OFFLINE_NOTICE,
  type ProviderName,
  providerForModel,
  providerNames,
  resolveLLMFromEnv,
  type SecretCipher,
  type Tool,
  withUsageId,
} from '@x/agent';
import type { AgentRequest } from '../api/request-schemas.js';
import { type ServerToolName, serverToolName } from '../api/tool-names.js';
import { agentExtensions, redactedMcpConfig, storableMcpConfig } from './agent-extensions.js';
import { hideCredentialFields } from './credential-fields.js';
import { InvalidRequestError } from './errors/invalid-request-error.js';
import { NoServerModelError } from './errors/no-server-model-error.js';

const REDACTED = '**********';

/**
 * meta.json's field for a base URL that holds credentials (userinfo, a `?key=`): the whole URL as a Fernet token
 * of the server's secret key, while `base_url` holds it masked (`maskUrlCredentials`), so no file the reference
 * reads has them in clear text and a resumed conversation still reaches its endpoint.
 */
const ENCRYPTED_BASE_URL = 'x_base_url_encrypted';
/** What `maskUrlCredentials` puts in place of a credential. */
const MASKED = '<secret-hidden>';

export interface BuildAgentOptions {
  /** Decrypts an api_key read back from meta.json. */
  cipher: SecretCipher | undefined;
  /** The server's own key, used when the conversation has none (or it was redacted in storage). */
  serverApiKey: string | undefined;
  /**
   * Where a body without a model finds the server's default, as `x run` does: X_MODEL, else the first provider
   * with a key (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY; their *_BASE_URL). Defaults to process.env.
   */
  modelEnvironment?: Record<string, string | undefined>;
  /**
   * The config is one stored before a missing model became an error (meta.json): a body with no model, no
   * endpoint and no key then ran on the offline model, and resuming it keeps doing so.
   */
  stored?: boolean;
}

/** The api key of a request or of stored meta: plain, a Fernet token of the server's key, or redacted/absent. */
function resolveApiKey(apiKey: string | null | undefined, options: BuildAgentOptions): string | undefined {
  if (apiKey === null || apiKey === undefined || apiKey.trim() === '' || apiKey === REDACTED) {
    return options.serverApiKey;
  }
  if (options.cipher !== undefined && apiKey.startsWith('gAAAAA') && options.cipher.isToken(apiKey)) {
    return options.cipher.decrypt(apiKey);
  }
  return apiKey;
}

function providerOf(llm: AgentRequest['llm'], model: string): ProviderName {
  const named = llm.custom_llm_provider === 'google' ? 'gemini' : llm.custom_llm_provider;
  return (providerNames as readonly string[]).includes(named ?? '') ? (named as ProviderName) : providerForModel(model);
}

/** The reference LLM's provider options as `createLLM` options. */
function providerOptions(llm: AgentRequest['llm'], provider: ProviderName): Partial<CreateLLMOptions> {
  const effort = llm.reasoning_effort && llm.reasoning_effort !== 'none' ? llm.reasoning_effort : undefined;
  const budget = llm.extended_thinking_budget ?? undefined;
  return {
    ...(effort || llm.reasoning_summary
      ? { reasoning: { ...(effort && { effort }), ...(llm.reasoning_summary && { summary: llm.reasoning_summary }) } }
      : {}),
    ...(budget !== undefined && provider === 'anthropic' && budget >= 1024
      ? { thinking: { budgetTokens: budget } }
      : {}),
    ...(budget !== undefined && provider === 'gemini' ? { thinking: { budgetTokens: budget } } : {}),
    ...(llm.caching_prompt === false ? { promptCaching: false } : {}),
    ...(typeof llm.enable_encrypted_reasoning === 'boolean'
      ? { encryptedReasoning: llm.enable_encrypted_reasoning }
      : {}),
    ...(typeof llm.temperature === 'number' ? { temperature: llm.temperature } : {}),
    ...(typeof llm.max_output_tokens === 'number' ? { maxOutputTokens: llm.max_output_tokens } : {}),
  };
}

/**
 * The LLM a request's `llm` describes (`at`, its place in the body, names it in errors: a handoff agent's name may
 * hold a dot, so the path is kept as parts). Only an agent has an offline script: an `llm` of its own
 * (generate_title's) with model `offline` gets the offline model's default answer.
 */
export function buildLLM(
  llm: AgentRequest['llm'],
  script: AgentRequest['x_offline_script'],
  options: BuildAgentOptions,
  at: readonly string[] = ['agent', 'llm'],
): LLM {
  const field = at.join('.');
  const model = llm.model ?? defaultModel;
  const provider = providerOf(llm, model);
  // The server's own key is an OpenAI key; other providers read theirs from the environment.
  const apiKey = resolveApiKey(llm.api_key, {
    ...options,
    serverApiKey: provider === 'openai' || provider === 'openai-responses' ? options.serverApiKey : undefined,
  });
  const usageId = llm.usage_id ?? undefined;
  const baseURL = resolveBaseUrl(llm, options, field);
  // `offline` always means the offline model, and so does an offline script (test servers only). A body that
  // names no model, endpoint or key gets the server's default from its environment, as `x run` does, and a
  // server that has none refuses it: a conversation never silently "succeeds" on the offline demo model.
  const unconfigured = (llm.model ?? undefined) === undefined && !llm.base_url && apiKey === undefined;
  const scripted = script !== undefined && script !== null;
  if (unconfigured && !scripted && llm.model !== 'offline') {
    const fromEnvironment = resolveLLMFromEnv(options.modelEnvironment ?? process.env);
    if (fromEnvironment !== undefined) {
      return usageId === undefined ? fromEnvironment : withUsageId(fromEnvironment, usageId);
    }
    if (options.stored !== true) throw new NoServerModelError(at);
  }
  if (llm.model === 'offline' || unconfigured) {
    const turns = script ?? [{ toolCalls: [{ name: 'finish', arguments: { message: OFFLINE_NOTICE } }] }];
    return createOfflineLLM({ script: turns, ...(usageId === undefined ? {} : { usageId }) });
  }
  try {
    return createLLM({
      model,
      provider,
      ...providerOptions(llm, provider),
      ...(baseURL ? { baseURL } : {}),
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(usageId === undefined ? {} : { usageId }),
    });
  } catch (error) {
    throw new InvalidRequestError(`${field}: ${(error as Error).message}`, {
      cause: error,
      loc: ['body', ...at],
    });
  }
}

/**
 * The base URL to call: the request's, or the one a stored config kept encrypted (its `base_url` is then masked).
 * A masked URL whose credentials were not kept (the server had no secret key) cannot reach its endpoint: refused
 * naming the field, rather than sending the placeholder as a password.
 */
function resolveBaseUrl(llm: AgentRequest['llm'], options: BuildAgentOptions, field: string): string | undefined {
  const stored = (llm as Record<string, unknown>)[ENCRYPTED_BASE_URL];
  if (typeof stored === 'string' && options.cipher?.isToken(stored) === true) return options.cipher.decrypt(stored);
  const baseURL = llm.base_url ?? undefined;
  if (baseURL?.includes(MASKED)) {
    throw new InvalidRequestError(
      `${field}.base_url: its credentials are masked (${MASKED}): a conversation stored by a server without a ` +
        'secret key (or with another one) keeps no copy of them; create it again with the full URL, or start the ' +
        'server with the secret key it was stored with',
      { statusCode: 422, loc: ['body', ...field.split('.'), 'base_url'] },
    );
  }
  return baseURL;
}

/**
 * How each built-in tool is made: `finish` and `think` are always added by Agent, so naming them adds nothing. Keyed
 * by the shared table's registry names, so a tool added there without a factory here does not compile.
 */
const TOOL_FACTORIES: Record<ServerToolName, (() => Tool) | undefined> = {
  terminal: () => createTerminalTool(),
  file_editor: () => createFileEditorTool(),
  task_tracker: () => createTaskTrackerTool(),
  finish: undefined,
  think: undefined,
  delegate: () => createDelegateTool(),
  // The reference's opt-in workspace tools.
  apply_patch: () => applyPatchTool,
  glob: () => globTool,
  grep: () => grepTool,
};

/**
 * The built-in tools a request names (by registry or class name, each once). The terminal's shell gets the minimal default environment
 * (`defaultInheritedVariables` of @x/agent): the server's own keys never reach the agent; credentials for the
 * agent are passed as conversation secrets, which are masked in events.
 */
function buildTools(request: AgentRequest): Tool[] {
  const tools: Tool[] = [];
  for (const { name: spelling } of request.tools) {
    const name = serverToolName(spelling);
    const create = name === undefined ? undefined : TOOL_FACTORIES[name];
    if (create !== undefined && !tools.some((tool) => tool.name === name)) tools.push(create());
  }
  return tools;
}

/**
 * The Agent a start request (or the agent config stored in meta.json) describes. `at` is where it is in the body
 * (`['agent']`, or `['agents', name]` for a handoff target), named in every refusal.
 */
export function buildAgent(
  request: AgentRequest,
  options: BuildAgentOptions,
  at: readonly string[] = ['agent'],
): Agent {
  const field = at.join('.');
  const llm = buildLLM(request.llm, request.x_offline_script, options, [...at, 'llm']);
  let condenser: ReturnType<typeof condenserFromJSON> | undefined;
  if (request.condenser !== null && request.condenser !== undefined) {
    try {
      // The reference's condenser copy of the agent's LLM counts under the usage id "condenser".
      condenser = condenserFromJSON(request.condenser, { llm: withUsageId(llm, 'condenser') });
    } catch (error) {
      if (!AgentError.isInstance(error)) throw error;
      throw new InvalidRequestError(`${field}.condenser: ${error.message}`, {
        statusCode: 422,
        cause: error,
        loc: ['body', ...at, 'condenser'],
      });
    }
  }
  return new Agent({
    llm,
    tools: buildTools(request),
    ...(request.system_prompt ? { systemPrompt: request.system_prompt } : {}),
    ...(condenser === undefined ? {} : { condenser }),
    ...agentExtensions(request, options.cipher, at),
    // The reference LLM's `stream` flag: token deltas are published live (StreamingDeltaEvent), never persisted.
    ...(request.llm.stream === true ? { stream: true } : {}),
  });
}

/**
 * The agent config as stored in meta.json: the api key encrypted with the server's key, else redacted; a base URL
 * with credentials masked, and kept whole encrypted beside it (`x_base_url_encrypted`) when the server has a key.
 */
export function storableAgentConfig(request: AgentRequest, cipher: SecretCipher | undefined): AgentRequest {
  const key = request.llm.api_key;
  let stored: string | null = null;
  if (key !== null && key !== undefined && key !== '' && key !== REDACTED) {
    stored = cipher === undefined ? REDACTED : cipher.encrypt(key);
  }
  const { [ENCRYPTED_BASE_URL]: _given, ...llm } = request.llm as Record<string, unknown>;
  const baseURL = request.llm.base_url ?? undefined;
  const masked = baseURL === undefined ? undefined : maskUrlCredentials(baseURL);
  const urlFields =
    baseURL === undefined || masked === baseURL
      ? {}
      : { base_url: masked, ...(cipher === undefined ? {} : { [ENCRYPTED_BASE_URL]: cipher.encrypt(baseURL) }) };
  // Any other credential field (provider options the server passes through, the condenser's own key): kept as
  // env values and headers are, encrypted or redacted; the server reads none of them back.
  const hide = (secret: string): string =>
    secret === '' || secret === REDACTED || (cipher?.isToken(secret) ?? false)
      ? secret
      : cipher === undefined
        ? REDACTED
        : cipher.encrypt(secret);
  return {
    ...request,
    llm: { ...(hideCredentialFields(llm, hide) as object), api_key: stored, ...urlFields } as AgentRequest['llm'],
    ...(request.condenser == null
      ? {}
      : { condenser: hideCredentialFields(request.condenser, hide) as AgentRequest['condenser'] }),
    ...(request.mcp_config == null
      ? {}
      : { mcp_config: storableMcpConfig(request.mcp_config, cipher) as AgentRequest['mcp_config'] }),
  };
}

/**
 * The agent config as shown in API responses: never the key nor any other credential field (`hideCredentialFields`),
 * a base URL's credentials masked.
 */
export function redactedAgentConfig(request: AgentRequest): AgentRequest {
  const key = request.llm.api_key;
  const { [ENCRYPTED_BASE_URL]: _stored, ...llm } = request.llm as Record<string, unknown>;
  const baseURL = request.llm.base_url ?? undefined;
  return {
    ...request,
    llm: {
      ...(hideCredentialFields(llm, (secret) => (secret === '' ? secret : REDACTED)) as object),
      api_key: key ? REDACTED : null,
      ...(baseURL === undefined ? {} : { base_url: maskUrlCredentials(baseURL) }),
    } as AgentRequest['llm'],
    ...(request.mcp_config == null
      ? {}
      : { mcp_config: redactedMcpConfig(request.mcp_config) as AgentRequest['mcp_config'] }),
  };
}

/**
 * The create body's `agents` (handoff targets) as Agents named by their keys, or undefined without any. Each is
 * built as `agent` is; a bad one is refused naming it.
 */
export function buildAgents(
  requests: Readonly<Record<string, AgentRequest>> | null | undefined,
  options: BuildAgentOptions,
): Record<string, Agent> | undefined {
  if (requests === null || requests === undefined || Object.keys(requests).length === 0) return undefined;
  const agents: Record<string, Agent> = {};
  for (const [name, request] of Object.entries(requests)) {
    try {
      agents[name] = buildAgent(request, options, ['agents', name]);
    } catch (error) {
      // Already named where it is (agents.<name>.llm, .condenser, …): refused as any handoff target's problem is.
      if (InvalidRequestError.isInstance(error)) {
        throw new InvalidRequestError(error.message, { statusCode: 422, cause: error, loc: error.loc });
      }
      throw new InvalidRequestError(`agents.${name}: ${(error as Error).message}`, {
        statusCode: 422,
        cause: error,
        loc: ['body', 'agents', name],
      });
    }
  }
  return agents;
}

/** The `agents` of a create body as meta.json keeps them (each key encrypted or redacted, as `agent`'s). */
export function storableAgents(
  requests: Readonly<Record<string, AgentRequest>>,
  cipher: SecretCipher | undefined,
): Record<string, AgentRequest> {
  return Object.fromEntries(
    Object.entries(requests).map(([name, request]) => [name, storableAgentConfig(request, cipher)]),
  );
}
