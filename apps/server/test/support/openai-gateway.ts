import { startScriptedLLMServer } from '@x/agent/testing';
import OpenAI from 'openai';
import { startTestServer, type TestServer } from '../helpers.js';

/** The session key of the gateway servers the tests start: an OpenAI client's API key. */
export const GATEWAY_KEY = 'gateway-session-key';
export const CONVERSATION_HEADER = 'X-OpenHands-ServerConversation-ID';

/** A model's create body, given the scripted model's base URL. */
export type GatewayModel = (baseURL: string) => Record<string, unknown>;

/**
 * A real server on 127.0.0.1 whose `openaiModels` has `x-terminal` (the terminal agent on the scripted model), and
 * any `more` a test needs, and an `openai` SDK client on its `/v1` that never retries (a test sees every request it
 * makes).
 */
export async function startGateway(
  more: Record<string, GatewayModel> = {},
): Promise<{ server: TestServer; client: OpenAI }> {
  const llm = await startScriptedLLMServer();
  const extra = Object.fromEntries(Object.entries(more).map(([id, model]) => [id, model(llm.baseURL)]));
  const server = await startTestServer({
    llm,
    config: {
      apiKeys: [GATEWAY_KEY],
      openaiModels: {
        'x-terminal': {
          agent: {
            llm: { model: 'gpt-test', base_url: llm.baseURL, api_key: 'sk-test-secret' },
            tools: [{ name: 'TerminalTool' }],
          },
        },
        ...extra,
      },
    },
  });
  const client = new OpenAI({ apiKey: GATEWAY_KEY, baseURL: `${server.url}/v1`, maxRetries: 0 });
  return { server, client };
}

/** What `promise` rejects with (a test fails when it resolves). */
export async function rejectionOf(promise: PromiseLike<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection, the call succeeded');
}
