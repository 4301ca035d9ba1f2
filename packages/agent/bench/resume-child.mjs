// The cold half of bench/resume.bench.ts: resumes a conversation from the built package with plain
// node (no TypeScript loader), sends one message and runs the first new step (the offline model
// answers at once with `finish`), so the time and memory are what a user's process would see from
// start to its first new step.
import { Agent, Conversation, createOfflineLLM } from '../dist/index.js';
import { peakRssBytes } from './peak-rss.mjs';

const [root, id, durability = 'none'] = process.argv.slice(2);
const agent = new Agent({
  llm: createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }] }),
  tools: [],
});
const before = process.memoryUsage().rss;
const cpuBefore = process.cpuUsage();
const start = performance.now();
const conversation = await Conversation.resume(id, { agent, persistenceDir: root, durability });
const resumed = performance.now() - start;
const eventsBefore = conversation.log.length;
await conversation.sendMessage('One more check, please.');
const result = await conversation.run();
const elapsed = performance.now() - start;
const cpuUsed = process.cpuUsage(cpuBefore);
// The peak, not the RSS now: what the machine must have for the process (its own, not its parent's: peak-rss.mjs).
const peak = peakRssBytes();
if (result.status !== 'finished') throw new Error(`first step ended ${result.status}`);
const viewEvents = (await conversation.view()).events.length;
await conversation.close();
console.log(
  JSON.stringify({
    resumed,
    elapsed,
    rss: peak,
    rssDelta: peak - before,
    cpu: (cpuUsed.user + cpuUsed.system) / 1000,
    events: eventsBefore,
    viewEvents,
  }),
);
