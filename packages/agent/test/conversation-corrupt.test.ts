import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CorruptEventError } from '@x/store';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, conversationDirName } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

describe('a damaged event file', () => {
  it('does not stop the conversation from opening and running; the file is still reported on direct reads', async () => {
    harness = await startHarness([
      { toolCalls: [{ name: 'think', arguments: { thought: 'first' } }] },
      { content: 'first run done' },
      { content: 'second run done' },
    ]);
    const { conversation } = await harness.conversation();
    await conversation.sendMessage('go');
    await conversation.run();
    await conversation.close();

    const eventsDir = join(harness.persistenceDir, conversationDirName(conversation.id), 'events');
    const files = (await readdir(eventsDir)).filter((name) => name.startsWith('event-')).sort();
    const damaged = files.find((name) => name.startsWith('event-00002-'));
    expect(damaged).toBeDefined();
    await writeFile(join(eventsDir, damaged as string), '{"this is": not json');

    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
    });
    await expect(resumed.log.get(2)).rejects.toSatisfy((error) => CorruptEventError.isInstance(error));
    await resumed.sendMessage('again');
    expect((await resumed.run()).status).toBe('finished');
    expect(JSON.stringify(harness.server.requests.at(-1))).toContain('again');
    // Leaving the event out of the model's history is said, once, naming the file and what is wrong with it.
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    const damagedWarnings = warnings.filter((warning) => (warning as { code?: string }).code === 'X_DAMAGED_EVENT');
    expect(damagedWarnings).toHaveLength(1);
    expect(damagedWarnings[0]?.message).toContain(damaged);
    expect(damagedWarnings[0]?.message).toMatch(/^Event 2 is left out of the conversation's history .*not valid JSON/);
  });

  it('an event file repeating an earlier id is left out once, named, and the conversation runs on', async () => {
    harness = await startHarness([{ content: 'first run done' }, { content: 'second run done' }]);
    const { conversation } = await harness.conversation();
    await conversation.sendMessage('go once');
    await conversation.run();
    await conversation.close();

    const eventsDir = join(harness.persistenceDir, conversationDirName(conversation.id), 'events');
    const files = (await readdir(eventsDir)).filter((name) => name.startsWith('event-')).sort();
    const message = (
      await Promise.all(files.map(async (name) => ({ name, text: await readFile(join(eventsDir, name), 'utf8') })))
    ).find(({ text }) => text.includes('go once'));
    expect(message).toBeDefined();
    // A foreign writer's copy of the user message at the next index, under the same id.
    const id = message!.name.replace(/^event-\d+-/, '').replace(/\.json$/, '');
    const repeat = `event-${String(files.length).padStart(5, '0')}-${id}.json`;
    await writeFile(join(eventsDir, repeat), message!.text);

    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const resumed = await Conversation.resume(conversation.id, {
      agent: harness.agent(),
      workspace: harness.workspace,
      persistenceDir: harness.persistenceDir,
    });
    await expect(resumed.log.get(files.length)).rejects.toSatisfy((error) => CorruptEventError.isInstance(error));
    await resumed.sendMessage('again');
    expect((await resumed.run()).status).toBe('finished');
    const request = JSON.stringify(harness.server.requests.at(-1));
    expect(request.split('go once').length - 1).toBe(1);
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    const damagedWarnings = warnings.filter((warning) => (warning as { code?: string }).code === 'X_DAMAGED_EVENT');
    expect(damagedWarnings).toHaveLength(1);
    expect(damagedWarnings[0]?.message).toContain(repeat);
    expect(damagedWarnings[0]?.message).toContain('is already event');
  });
});
