import { describe, expect, it } from 'vitest';
import type { StartConversationRequest } from '../../api/request-schemas.js';
import { assertContinues, MODEL_TAG, otherModelRefused, withSystemText } from './conversation-continuation.js';
import { OpenAiGatewayError } from './openai-error.js';

type Agent = StartConversationRequest['agent'];
const create = (agent: Partial<Agent> = {}): StartConversationRequest =>
  ({ agent: { llm: { model: 'scripted', api_key: 'sk-model' }, tools: [{ name: 'terminal' }], ...agent } }) as never;
const meta = (agent: Agent, tags: Record<string, string> = {}) => ({ id: 'c1', tags, agent });

/** The refusal assertContinues throws (or undefined when the turn continues the conversation). */
function refusalOf(
  conversation: ReturnType<typeof meta>,
  request: { model?: string; create?: StartConversationRequest; system?: string },
): { param: string | null; code: string; message: string } | undefined {
  try {
    assertContinues(conversation, {
      model: request.model ?? 'm',
      create: request.create ?? create(),
      system: request.system ?? '',
      systemParam: 'instructions',
    });
    return undefined;
  } catch (error) {
    if (!OpenAiGatewayError.isInstance(error)) throw error;
    return { param: error.param, code: error.code, message: error.message };
  }
}

describe('withSystemText', () => {
  it('appends the system text, trimmed, to the agent suffix after a blank line, keeping the other context', () => {
    const model = create({ agent_context: { system_message_suffix: ' Be brief. ', skills: ['s'] } as never });
    expect(withSystemText(model, '  Answer in French.\n').agent.agent_context).toEqual({
      system_message_suffix: 'Be brief.\n\nAnswer in French.',
      skills: ['s'],
    });
  });

  it('makes the system text the suffix of an agent without one, and leaves the create body as it was without text', () => {
    const model = create();
    expect(withSystemText(model, 'Answer in French.').agent.agent_context).toEqual({
      system_message_suffix: 'Answer in French.',
    });
    expect(withSystemText(model, '')).toBe(model);
    expect(model.agent.agent_context).toBeUndefined();
  });
});

describe('assertContinues', () => {
  it('continues the conversation of the tagged model, refusing another model naming the one to send', () => {
    const tagged = meta(create().agent, { [MODEL_TAG]: 'm' });
    expect(refusalOf(tagged, { model: 'm' })).toBeUndefined();
    expect(refusalOf(tagged, { model: 'other' })).toEqual({
      param: 'model',
      code: 'unsupported_value',
      message: expect.stringContaining("'model' 'other' is not the model of conversation c1, 'm'"),
    });
    expect(refusalOf(tagged, { model: 'other' })?.message).toContain("; send model 'm'");
  });

  it("takes an untagged conversation's agent as the model's when only secrets, key order and empty fields differ", () => {
    const stored = {
      tools: [{ name: 'terminal' }],
      llm: { api_key: 'encrypted:abc', model: 'scripted', base_url: null, litellm_extra_body: {} },
      mcp_config: { mcpServers: { s: { command: 'x', env: { TOKEN: 'encrypted:def' } } } },
      agent_context: {},
      condenser: null,
    } as never as Agent;
    expect(refusalOf(meta(stored), {})).toBeUndefined();
  });

  it("refuses an untagged conversation whose agent is not the model's, without naming a model to send", () => {
    const stored = create({ llm: { model: 'another-llm', api_key: 'sk' } as never }).agent;
    const refusal = refusalOf(meta(stored), { model: 'm' });
    expect(refusal).toMatchObject({ param: 'model', code: 'unsupported_value' });
    expect(refusal?.message).toContain("(its agent is not that model's agent)");
    expect(refusal?.message).not.toContain('send model');
    const otherTools = create({ tools: [{ name: 'terminal' }, { name: 'file_editor' }] as never }).agent;
    expect(refusalOf(meta(otherTools), {})?.param).toBe('model');
    const nested = create({ condenser: { kind: 'LLMSummarizingCondenser', max_size: 10 } as never }).agent;
    expect(refusalOf(meta(nested), {})?.param).toBe('model');
    const otherContext = create({ agent_context: { skills: [{ name: 'x' }] } as never }).agent;
    expect(refusalOf(meta(otherContext), {})?.param).toBe('model');
  });

  it("checks an untagged conversation's agent but its system suffix, which is checked on its own", () => {
    const stored = create({ agent_context: { system_message_suffix: 'Answer in French.' } as never }).agent;
    expect(refusalOf(meta(stored), {})).toBeUndefined();
    expect(refusalOf(meta(stored), { system: 'Answer in French.' })).toBeUndefined();
    expect(refusalOf(meta(stored), { system: 'Answer in German.' })?.param).toBe('instructions');
  });

  it('refuses system text other than the text the conversation started with, and takes none or the same', () => {
    const started = withSystemText(create(), 'Answer in French.').agent;
    const tagged = meta(started, { [MODEL_TAG]: 'm' });
    expect(refusalOf(tagged, { system: '' })).toBeUndefined();
    expect(refusalOf(tagged, { system: ' Answer in French.\n' })).toBeUndefined();
    expect(refusalOf(tagged, { system: 'Answer in German.' })).toEqual({
      param: 'instructions',
      code: 'unsupported_value',
      message: expect.stringContaining("'instructions' holds system text"),
    });
    expect(refusalOf(meta(create().agent, { [MODEL_TAG]: 'm' }), { system: 'Answer in French.' })?.param).toBe(
      'instructions',
    );
  });
});

describe('otherModelRefused', () => {
  it("names the conversation's model when it is known", () => {
    expect(otherModelRefused('a', 'the conversation', 'b').message).toBe(
      "Unsupported value: 'model' 'a' is not the model of the conversation, 'b': a conversation's agent is set when it starts; send model 'b' (or start a new conversation)",
    );
  });
});
