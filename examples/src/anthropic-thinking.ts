// Claude with extended thinking, through the Anthropic SDK. Thinking blocks (with their signatures) are kept
// on the events and sent back on the next turn, as the Messages API requires when tools are used.
//
//   ANTHROPIC_API_KEY=sk-ant-... node dist/anthropic-thinking.js   (ANTHROPIC_BASE_URL for another endpoint)
import { Agent, Conversation, createAnthropicLLM, defineTool } from '@x/agent';
import { z } from 'zod';

const capitals: Record<string, string> = { France: 'Paris', Japan: 'Tokyo', Kenya: 'Nairobi' };
const lookupCapital = defineTool({
  name: 'lookup_capital',
  description: 'The capital city of a country.',
  parameters: z.object({ country: z.string() }),
  annotations: { readOnlyHint: true },
  execute: ({ country }) => {
    const capital = capitals[country];
    return capital === undefined
      ? { content: `No capital known for ${country}`, is_error: true }
      : { content: capital };
  },
});

//#region llm
// Key and endpoint: ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL (or pass apiKey / baseURL).
const llm = createAnthropicLLM({
  model: process.env.X_MODEL ?? 'claude-sonnet-4-6',
  thinking: { budgetTokens: 2048 },
});
//#endregion llm

const conversation = await Conversation.create({
  agent: new Agent({ llm, tools: [lookupCapital] }),
  onEvent: (event) => {
    if (event.kind === 'ActionEvent' || event.kind === 'MessageEvent') {
      const blocks = event.kind === 'ActionEvent' ? event.thinking_blocks : event.llm_message.thinking_blocks;
      for (const block of blocks) if (block.type === 'thinking') console.log('thinking:', block.thinking);
    }
    if (event.kind === 'ActionEvent') console.log('tool call:', event.tool_name, JSON.stringify(event.action));
    if (event.kind === 'MessageEvent' && event.source === 'agent') {
      const text = event.llm_message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
      console.log('answer:', text);
    }
  },
});
await conversation.sendMessage('What is the capital of France? Use the lookup_capital tool.');
const result = await conversation.run();
console.log('status:', result.status, 'cost:', conversation.state.stats.usage_to_metrics.default?.accumulated_cost);
await conversation.close();
