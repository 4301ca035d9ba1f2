// OpenTelemetry: register any OpenTelemetry SDK in your process and x's spans appear, in the GenAI semantic
// conventions' vocabulary: `invoke_agent` per run, `chat {model}` per model call, `execute_tool {tool}` per tool
// call, nested, with token usage. A model call's span carries `gen_ai.response.id`, the id the events record as
// `llm_response_id`, so a trace and the event log join. Here the spans are kept in memory and printed as a tree;
// in production you would register an OTLP exporter instead.
//
//   OPENAI_API_KEY=sk-... node dist/telemetry.js
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { Agent, Conversation, defineTool, resolveLLMFromEnv } from '@x/agent';
import { z } from 'zod';

//#region register
// What the Node SDK (`@opentelemetry/sdk-node`) does for you: a context manager, so spans nest across awaits,
// and a tracer provider with an exporter.
const exporter = new InMemorySpanExporter();
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
//#endregion register

const llm = resolveLLMFromEnv(process.env);
if (llm === undefined)
  throw new Error('No model configured: set OPENAI_API_KEY (or ANTHROPIC_API_KEY, GEMINI_API_KEY)');
const wordCount = defineTool({
  name: 'word_count',
  description: 'Count the words in a text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => ({ content: `${text.split(/\s+/).filter(Boolean).length} words` }),
});

const conversation = await Conversation.create({ agent: new Agent({ llm, tools: [wordCount] }) });
await conversation.sendMessage('How many words are in "to be or not to be"? Use the word_count tool.');
await conversation.run();
const responseIds = new Set<string>();
for await (const event of conversation.events())
  if ('llm_response_id' in event && typeof event.llm_response_id === 'string') responseIds.add(event.llm_response_id);
await conversation.close();

//#region print
const spans = exporter.getFinishedSpans();
const children = (parent: ReadableSpan | undefined) =>
  spans.filter((span) => span.parentSpanContext?.spanId === parent?.spanContext().spanId);
const print = (span: ReadableSpan, depth: number): void => {
  const attributes = span.attributes;
  const usage =
    attributes['gen_ai.usage.input_tokens'] === undefined
      ? ''
      : ` (${attributes['gen_ai.usage.input_tokens']} in, ${attributes['gen_ai.usage.output_tokens']} out)`;
  const joined = responseIds.has(String(attributes['gen_ai.response.id'])) ? ' [response id in the log]' : '';
  console.log(`${'  '.repeat(depth)}${span.name}${usage}${joined}`);
  for (const child of children(span)) print(child, depth + 1);
};
for (const root of children(undefined)) print(root, 0);
//#endregion print
