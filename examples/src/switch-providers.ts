// One conversation, three vendors' wire protocols in turn: OpenAI's Responses API, Anthropic's Messages API and
// Gemini's generateContent, each through x's native provider (the vendor's own SDK underneath). Events are
// provider-neutral, so `switchLLM` hands the whole history, tool calls and results included, to the next model
// in its own format. (Chat Completions, the fourth protocol, is what `custom-tool.ts` uses.)
//
//   OPENAI_API_KEY=sk-... ANTHROPIC_API_KEY=sk-ant-... GEMINI_API_KEY=... node dist/switch-providers.js
import { Agent, agentFinalResponse, Conversation, defineTool, type LLM, resolveLLMFromEnv } from '@x/agent';
import { z } from 'zod';

const lookupCapital = defineTool({
  name: 'lookup_capital',
  description: "Look up a country's capital.",
  parameters: z.object({ country: z.string() }),
  annotations: { readOnlyHint: true },
  execute: ({ country }) => ({
    content: ({ France: 'Paris', Japan: 'Tokyo' } as Record<string, string>)[country] ?? 'unknown',
  }),
});

//#region providers
// The provider follows the model's name (`openai-responses/`, `anthropic/`, `gemini/` or the family); the key and
// endpoint come from that vendor's variables (OPENAI_* / ANTHROPIC_* / GEMINI_*_BASE_URL).
const models = ['openai-responses/gpt-5-mini', 'anthropic/claude-sonnet-4-6', 'gemini/gemini-2.5-flash'];
const llms = models.map((model) => {
  const llm = resolveLLMFromEnv(process.env, { model });
  if (llm === undefined)
    throw new Error(`No key for ${model}: set OPENAI_API_KEY, ANTHROPIC_API_KEY and GEMINI_API_KEY`);
  return llm;
});
//#endregion providers

const conversation = await Conversation.create({ agent: new Agent({ llm: llms[0] as LLM, tools: [lookupCapital] }) });
const questions = [
  "What is France's capital? Use the tool.",
  "And Japan's? Use the tool.",
  'Which two capitals did we look up so far?',
];
//#region switch
for (const [turn, llm] of llms.entries()) {
  if (turn > 0) await conversation.switchLLM(llm); // recorded; the next step calls this model
  await conversation.sendMessage(questions[turn] as string);
  const result = await conversation.run();
  console.log(`${llm.model}: ${await agentFinalResponse(conversation.events())} (${result.status})`);
}
//#endregion switch
await conversation.close();
