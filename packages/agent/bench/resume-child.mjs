// The cold half of bench/resume.bench.ts: resumes a conversation from the built package with plain
// node (no TypeScript loader), so the time and memory are what a user's process would see.
import { Conversation, createAgent, createOfflineLLM } from '../dist/index.js';

const [root, id] = process.argv.slice(2);
const agent = createAgent({ llm: createOfflineLLM({ script: [] }) });
const before = process.memoryUsage().rss;
const start = performance.now();
const conversation = await Conversation.resume(id, { agent, persistenceDir: root });
const elapsed = performance.now() - start;
const after = process.memoryUsage().rss;
console.log(JSON.stringify({ elapsed, rss: after, rssDelta: after - before, events: conversation.state.event_count }));
