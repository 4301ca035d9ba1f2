// Compares @x/agent's LLMSummarizingCondenser with the reference's choices (refcond.py output): the events forgotten
// and the summary offset (--prompt also compares the summarizing prompt, which is our own text by design).
// Usage (from packages/agent): npx tsx ../../tooling/reference-oracle/xcond.mts /tmp/ref-cond.jsonl
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createOfflineLLM, isCondensation, LLMSummarizingCondenser } from '../../packages/agent/src/index.ts';
import { parseEventJson, View } from '../../packages/events/src/index.ts';

const lines = readFileSync(process.argv[2]!, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));
let checked = 0,
  bad = 0;
for (const ref of lines) {
  if (ref.reasons.length === 0 || ref.error) continue;
  const dir = ref.dir as string;
  const events = readdirSync(join(dir, 'events'))
    .filter((f) => f.startsWith('event-'))
    .sort()
    .map((f) => parseEventJson(readFileSync(join(dir, 'events', f), 'utf8')));
  const view = View.fromEvents(events);
  let prompt: string | undefined;
  const llm = createOfflineLLM({
    script: (request) => {
      prompt = request.messages
        .map((m: { content: string | { type: string; text?: string }[] }) =>
          typeof m.content === 'string'
            ? m.content
            : m.content.map((p) => (p.type === 'text' ? (p.text ?? '') : '')).join(''),
        )
        .join('\n');
      return { content: 'summary' };
    },
  });
  const condenser = new LLMSummarizingCondenser({
    llm,
    maxSize: ref.max_size,
    keepFirst: ref.keep_first,
    ...(ref.max_event_str_length ? { maxEventStrLength: ref.max_event_str_length } : {}),
  });
  let result: unknown;
  let error: string | undefined;
  try {
    result = await condenser.getCondensation(view);
  } catch (e) {
    error = String(e);
  }
  checked++;
  const forgotten =
    result && isCondensation(result as never)
      ? (result as { forgotten_event_ids: string[] }).forgotten_event_ids
      : undefined;
  const offset =
    result && isCondensation(result as never) ? (result as { summary_offset?: number }).summary_offset : undefined;
  const problems: string[] = [];
  if (JSON.stringify(forgotten ?? null) !== JSON.stringify(ref.forgotten ?? null))
    problems.push(
      `forgotten ours ${JSON.stringify(forgotten)?.slice(0, 200)} ref ${JSON.stringify(ref.forgotten)?.slice(0, 200)} error ${error}`,
    );
  if (offset !== ref.offset) problems.push(`offset ours ${offset} ref ${ref.offset}`);
  if (process.argv.includes('--prompt') && ref.prompt !== undefined && prompt !== ref.prompt) {
    let i = 0;
    while (prompt && i < prompt.length && prompt[i] === ref.prompt[i]) i++;
    problems.push(
      `prompt differs at ${i}: ours ${JSON.stringify(prompt?.slice(Math.max(0, i - 100), i + 150))}\n   ref ${JSON.stringify(ref.prompt.slice(Math.max(0, i - 100), i + 150))}`,
    );
  }
  if (problems.length) {
    bad++;
    if (bad <= 4)
      console.log(dir, ref.max_size, ref.keep_first, ref.max_event_str_length, `\n  ${problems.join('\n  ')}`);
  }
}
console.log('checked', checked, 'differing', bad);
