// one-off: memory at phases (not committed)
import { writeHeapSnapshot } from 'node:v8';
import { Agent, Conversation, createOfflineLLM } from '../dist/index.js';
const [root, id, durability = 'none', snap] = process.argv.slice(2);
const marks = [];
const mark = (label) => { const m = process.memoryUsage(); marks.push({ label, t: performance.now().toFixed(0), rss: (m.rss / 2 ** 20).toFixed(0), heapUsed: (m.heapUsed / 2 ** 20).toFixed(0), heapTotal: (m.heapTotal / 2 ** 20).toFixed(0), ext: (m.external / 2 ** 20).toFixed(0), ab: (m.arrayBuffers / 2 ** 20).toFixed(0), peak: (process.resourceUsage().maxRSS / 1024).toFixed(0) }); };
mark('imported');
const base = createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }] });
const llm = { ...base, complete: async (request) => { mark(`llm.complete (${request.messages.length} msgs)`); if (snap) writeHeapSnapshot(snap); const r = await base.complete(request); mark('llm done'); return r; } };
const agent = new Agent({ llm, tools: [] });
const conversation = await Conversation.resume(id, { agent, persistenceDir: root, durability });
mark('resumed');
await conversation.sendMessage('One more check, please.');
mark('sent');
const result = await conversation.run();
mark('ran');
await conversation.close();
mark('closed');
console.table(marks);
