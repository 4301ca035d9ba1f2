import {
  Agent,
  AgentError,
  condenserFromJSON,
  createFileEditorTool,
  createOfflineLLM,
  createOpenAILLM,
  createTerminalTool,
  defaultModel,
  type LLM,
  OFFLINE_NOTICE,
  type SecretCipher,
  type Tool,
} from '@x/agent';
import type { AgentRequest } from '../api/request-schemas.js';
import { InvalidRequestError } from './errors/invalid-request-error.js';

const REDACTED = '**********';

export interface BuildAgentOptions {
  /** Decrypts an api_key read back from meta.json. */
  cipher: SecretCipher | undefined;
  /** The server's own key, used when the conversation has none (or it was redacted in storage). */
  serverApiKey: string | undefined;
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

function buildLLM(request: AgentRequest, options: BuildAgentOptions): LLM {
  const { llm } = request;
  const apiKey = resolveApiKey(llm.api_key, options);
  const usageId = llm.usage_id ?? undefined;
  // `offline` always means the offline model; no model, no endpoint and no key means it too.
  const unconfigured = (llm.model ?? undefined) === undefined && !llm.base_url && apiKey === undefined;
  if (llm.model === 'offline' || unconfigured) {
    const script = request.x_offline_script ?? [
      { toolCalls: [{ name: 'finish', arguments: { message: OFFLINE_NOTICE } }] },
    ];
    return createOfflineLLM({ script, ...(usageId === undefined ? {} : { usageId }) });
  }
  try {
    return createOpenAILLM({
      model: llm.model ?? defaultModel,
      ...(llm.base_url ? { baseURL: llm.base_url } : {}),
      ...(apiKey === undefined ? {} : { apiKey }),
      ...(usageId === undefined ? {} : { usageId }),
    });
  } catch (error) {
    throw new InvalidRequestError(`agent.llm: ${(error as Error).message}`, { cause: error });
  }
}

function buildTools(request: AgentRequest): Tool[] {
  const tools: Tool[] = [];
  for (const { name } of request.tools) {
    if ((name === 'TerminalTool' || name === 'terminal') && !tools.some((tool) => tool.name === 'terminal')) {
      tools.push(createTerminalTool());
    }
    if ((name === 'FileEditorTool' || name === 'file_editor') && !tools.some((tool) => tool.name === 'file_editor')) {
      tools.push(createFileEditorTool());
    }
    // finish and think are always added by Agent.
  }
  return tools;
}

/** The Agent a start request (or the agent config stored in meta.json) describes. */
export function buildAgent(request: AgentRequest, options: BuildAgentOptions): Agent {
  const llm = buildLLM(request, options);
  let condenser: ReturnType<typeof condenserFromJSON> | undefined;
  if (request.condenser !== null && request.condenser !== undefined) {
    try {
      condenser = condenserFromJSON(request.condenser, { llm });
    } catch (error) {
      if (!AgentError.isInstance(error)) throw error;
      throw new InvalidRequestError(`agent.condenser: ${error.message}`, { statusCode: 422, cause: error });
    }
  }
  return new Agent({
    llm,
    tools: buildTools(request),
    ...(request.system_prompt ? { systemPrompt: request.system_prompt } : {}),
    ...(condenser === undefined ? {} : { condenser }),
    // The reference LLM's `stream` flag: token deltas are published live (StreamingDeltaEvent), never persisted.
    ...(request.llm.stream === true ? { stream: true } : {}),
  });
}

/** The agent config as stored in meta.json: the api key encrypted with the server's key, else redacted. */
export function storableAgentConfig(request: AgentRequest, cipher: SecretCipher | undefined): AgentRequest {
  const key = request.llm.api_key;
  let stored: string | null = null;
  if (key !== null && key !== undefined && key !== '' && key !== REDACTED) {
    stored = cipher === undefined ? REDACTED : cipher.encrypt(key);
  }
  return { ...request, llm: { ...request.llm, api_key: stored } };
}

/** The agent config as shown in API responses: never the key. */
export function redactedAgentConfig(request: AgentRequest): AgentRequest {
  const key = request.llm.api_key;
  return { ...request, llm: { ...request.llm, api_key: key ? REDACTED : null } };
}
