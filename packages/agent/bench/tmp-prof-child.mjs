import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import v8 from 'node:v8';
import { Agent, Conversation, createOfflineLLM } from '../dist/index.js';
const [root, id, durability = 'none', out = '/tmp/ni-prof/window.cpuprofile'] = process.argv.slice(2);
const agent = new Agent({
  llm: createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }] }),
  tools: [],
});
const session = new Session(); session.connect();
await session.post('Profiler.enable'); await session.post('Profiler.setSamplingInterval', { interval: 100 });
const mem = (label) => { const h = v8.getHeapStatistics(); const m = process.memoryUsage(); console.log(label, 'rss', (m.rss/2**20).toFixed(1), 'heapUsed', (h.used_heap_size/2**20).toFixed(1), 'heapTotal', (h.total_heap_size/2**20).toFixed(1), 'external', (m.external/2**20).toFixed(1), 'arrayBuffers', (m.arrayBuffers/2**20).toFixed(1)); };
mem('before');

await session.post('Profiler.start');
const t0 = performance.now();
const conversation = await Conversation.resume(id, { agent, persistenceDir: root, durability });
const t1 = performance.now();
const { profile: p1 } = await session.post('Profiler.stop'); writeFileSync(out, JSON.stringify(p1));
mem('resumed');
await conversation.sendMessage('One more check, please.');
const t2 = performance.now();
mem('sent');
const result = await conversation.run();
const t3 = performance.now();

mem('ran');

console.log({ resume: t1 - t0, send: t2 - t1, run: t3 - t2, total: t3 - t0, status: result.status });
const tc = performance.now();
await conversation.close();
console.log('close', performance.now() - tc);
