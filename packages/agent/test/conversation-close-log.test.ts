import { createMemoryFileStore, EventLog, type FileStore } from '@x/store';
import { describe, expect, it, vi } from 'vitest';
import { Agent, Conversation, ConversationClosedError, createOfflineLLM } from '../src/index.js';

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

  it('is closed again after a close that failed, and then refuses calls naming the conversation', async () => {
    const conversation = await Conversation.create({ agent: agent(), store: createMemoryFileStore() });
    await conversation.sendMessage('hello');
    const close = vi.spyOn(conversation.log, 'close').mockRejectedValueOnce(new Error('disk full'));
    await expect(conversation.close()).rejects.toThrow('disk full');
    await conversation.close();
    expect(close).toHaveBeenCalledTimes(2);
    const refused = conversation.sendMessage('again');
    await expect(refused).rejects.toThrow(ConversationClosedError);
    await expect(refused).rejects.toThrow(`Conversation ${conversation.id} is closed.`);
  });
});
