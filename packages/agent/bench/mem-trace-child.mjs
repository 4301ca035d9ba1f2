// Where bench/resume.bench.ts's memory goes: the same work as bench/resume-child.mjs (resume, send, first step),
// printing `process.memoryUsage()` and the peak RSS so far (MiB) after the import, the resume, the send, at the
// model call (every view event and message alive), after it and after the run. Not run by the benchmark: run it
// by hand on a conversation kept with BENCH_KEEP=1 (`node bench/mem-trace-child.mjs <root> <id> [durability]
// [snapshot path]`); a snapshot path writes a heap snapshot at the model call.
import { writeHeapSnapshot } from 'node:v8';
import { Agent, Conversation, createOfflineLLM } from '../dist/index.js';
import { peakRssBytes } from './peak-rss.mjs';

const [root, id, durability = 'none', snapshot] = process.argv.slice(2);
const mib = (bytes) => (bytes / 2 ** 20).toFixed(0);
const marks = [];
const mark = (label) => {
  const usage = process.memoryUsage();
  marks.push({
    label,
    ms: performance.now().toFixed(0),
    rss: mib(usage.rss),
    heapUsed: mib(usage.heapUsed),
    heapTotal: mib(usage.heapTotal),
    external: mib(usage.external),
    arrayBuffers: mib(usage.arrayBuffers),
    peakRss: mib(peakRssBytes()),
  });
};
mark('imported');
const offline = createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }] });
const llm = {
  ...offline,
  async complete(request) {
    mark(`model call (${request.messages.length} messages)`);
    if (snapshot) writeHeapSnapshot(snapshot);
    const response = await offline.complete(request);
    mark('model answered');
    return response;
  },
};
const conversation = await Conversation.resume(id, {
  agent: new Agent({ llm, tools: [] }),
  persistenceDir: root,
  durability,
});
mark('resumed');
await conversation.sendMessage('One more check, please.');
mark('sent');
await conversation.run();
mark('ran');
await conversation.close();
mark('closed');
console.table(marks);
