import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import * as agentModule from '@x/agent';
import { createStrictReplay } from '@x/agent/testing';

const dir = '/tmp/tamper-h/conversations/7b41a6525a3643d395530eb4672c9d59/events';
const events = readdirSync(dir)
  .filter((n) => n.startsWith('event-'))
  .sort()
  .map((n) => JSON.parse(readFileSync(dir + '/' + n, 'utf8')));
const replay = createStrictReplay(events, { normalize: (t) => t.replace(/\/tmp\/[a-z-]+-[A-Za-z0-9]{6}/g, '<ws>') });
const conversation = await agentModule.Conversation.create({
  agent: agentModule.createAgent({ llm: replay.llm }),
  workspace: mkdtempSync('/tmp/tamper-ws-'),
  persistenceDir: mkdtempSync('/tmp/tamper-p-'),
  durability: 'none',
});
await conversation.sendMessage(events.find((e) => e.kind === 'MessageEvent').llm_message);
await conversation.run().catch(() => {});
console.log(JSON.stringify(replay.divergence, null, 1));
