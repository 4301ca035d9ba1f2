// A tool of your own: a zod schema for its arguments and an `execute` function. The model sees the schema as
// JSON Schema; the call and its result are recorded as an ActionEvent and an ObservationEvent.
//
//   OPENAI_API_KEY=sk-... node dist/custom-tool.js      (OPENAI_BASE_URL for any OpenAI-compatible endpoint)
import { Agent, Conversation, defineTool, resolveLLMFromEnv } from '@x/agent';
import { z } from 'zod';

//#region tool
const wordCount = defineTool({
  name: 'word_count', // recorded as WordCountAction / WordCountObservation
  description: 'Count the words in a text.',
  parameters: z.object({ text: z.string().describe('The text to count') }),
  annotations: { readOnlyHint: true },
  execute: ({ text }) => {
    const words = text.split(/\s+/).filter(Boolean).length;
    return { content: `${words} words`, words }; // extra fields land on the Observation
  },
});
//#endregion tool

//#region run
// The model comes from the environment (X_MODEL, OPENAI_API_KEY / OPENAI_BASE_URL, ANTHROPIC_API_KEY, ...).
const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');

const agent = new Agent({ llm, tools: [wordCount] });
const conversation = await Conversation.create({
  agent,
  onEvent: (event) => {
    if (event.kind === 'ObservationEvent')
      console.log(
        'observation:',
        event.observation.content.map((part) => (part.type === 'text' ? part.text : '')).join(''),
      );
  },
});
await conversation.sendMessage('How many words are in "the quick brown fox"? Use the word_count tool.');
const result = await conversation.run();
console.log('status:', result.status);
await conversation.close();
//#endregion run
