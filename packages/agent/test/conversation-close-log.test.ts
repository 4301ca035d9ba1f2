import { createMemoryFileStore, EventLog, type FileStore } from '@x/store';
import { describe, expect, it, vi } from 'vitest';
import { Agent, Conversation, createOfflineLLM } from '../src/index.js';

const agent = (): Agent =>
  new Agent({
    llm: createOfflineLLM({ script: [{ toolCalls: [{ name: 'finish', arguments: { message: 'done' } }] }] }),
    tools: [],
  });

describe('Conversation.close and its event log', () => {
  it('closes the log (which writes its name index) once the conversation is checkpointed, once', async () => {
    const store = createMemoryFileStore();
    const logs: EventLog[] = [];
    const openEventLog = async (location: { store: FileStore; dir: string }) => {
      const log = await EventLog.open(location.store, { dir: location.dir });
      logs.push(log);
      return log;
    };
    const conversation = await Conversation.create({ agent: agent(), store, openEventLog });
    await conversation.sendMessage('hello');
    await conversation.run();
    const close = vi.spyOn(logs[0]!, 'close');
    await conversation.close();
    await conversation.close();
    expect(close).toHaveBeenCalledTimes(1);
    // The log stays readable: closing it only persisted what makes the next open fast.
    const resumed = await Conversation.resume(conversation.id, { agent: agent(), store, openEventLog });
    expect(resumed.log.length).toBe(conversation.log.length);
    await resumed.close();
  });
});
