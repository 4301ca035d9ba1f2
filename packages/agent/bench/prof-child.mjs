import { Agent, Conversation, createOfflineLLM } from '../dist/index.js';
const [root, id] = process.argv.slice(2);
const mem = (label) => { const m = process.memoryUsage(); console.error(label, 'rss', (m.rss/2**20).toFixed(0), 'heap', (m.heapUsed/2**20).toFixed(0), 'htot', (m.heapTotal/2**20).toFixed(0), 'ext', (m.external/2**20).toFixed(0), 'ab', (m.arrayBuffers/2**20).toFixed(0), 'maxrss', (process.resourceUsage().maxRSS/1024).toFixed(0)); };
const agent = new Agent({ llm: createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }] }), tools: [] });
mem('start');
const cpu0 = process.cpuUsage();
const conversation = await Conversation.resume(id, { agent, persistenceDir: root, durability: 'none' });
mem('resumed');
if (process.env.STOP === 'resumed') { globalThis.keep = conversation; process.exit(0); }
const v = await conversation.view();
mem('view');
if (process.env.STOP === 'view') { globalThis.keep = v; process.exit(0); }
await conversation.sendMessage('One more check, please.');
const result = await conversation.run();
mem('ran');
const c = process.cpuUsage(cpu0);
console.error('cpu', (c.user + c.system) / 1000, result.status);
await conversation.close();
