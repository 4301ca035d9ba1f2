// Condensation: a long task's history outgrows what the model should be sent, so the agent's condenser replaces
// the middle of the view with a summary the model writes (an LLMSummarizingCondenser, as the reference's). The
// log keeps every event; only the view the model sees shrinks, and a `Condensation` event records what was
// forgotten and the summary, so a resume rebuilds the same view.
//
//   OPENAI_API_KEY=sk-... node dist/condensation.js
import { Agent, Conversation, defineTool, LLMSummarizingCondenser, resolveLLMFromEnv } from '@x/agent';
import { z } from 'zod';

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

const readPage = defineTool({
  name: 'read_page',
  description: 'Read one page of the report (pages 1 to 8).',
  parameters: z.object({ page: z.number().int().min(1).max(8) }),
  annotations: { readOnlyHint: true },
  execute: ({ page }) => ({ content: `Page ${page}: ${page * 10} units shipped.` }),
});

//#region condenser
// Small on purpose, to condense within a few steps: past 10 events the view keeps the first 2 and a recent tail,
// and the same model summarizes the rest (defaults: 240 events, or the model's input limit in tokens).
const condenser = new LLMSummarizingCondenser({ llm, maxSize: 10, keepFirst: 2 });
const conversation = await Conversation.create({
  agent: new Agent({ llm, tools: [readPage], condenser }),
  onEvent: (event) => {
    if (event.kind === 'Condensation')
      console.log(`condensed: ${event.forgotten_event_ids.length} events forgotten; summary: ${event.summary}`);
  },
});
//#endregion condenser

await conversation.sendMessage('Read all 8 pages of the report, one at a time, then give the total units shipped.');
const result = await conversation.run();
let logged = 0;
for await (const _event of conversation.events()) logged += 1;
console.log(
  `status: ${result.status}; ${logged} events in the log, ${(await conversation.view()).events.length} in the view`,
);
await conversation.close();
