import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Conversation, ConversationLogGapError, conversationDirName } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

/** Every file under `dir` (relative paths, sorted) with its bytes. */
async function snapshot(dir: string): Promise<[string, string][]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  return Promise.all(
    files.map(async (path) => [path.slice(dir.length), await readFile(path, 'utf8')] as [string, string]),
  );
}

describe('a conversation whose event log lost an event in the middle', () => {
  it('refuses to record with a ConversationLogGapError naming the gap, and goes on past it only with repairLogGap', async () => {
    harness = await startHarness([{ content: 'first run done' }, { content: 'after the repair' }]);
    const { conversation } = await harness.conversation();
    await conversation.sendMessage('go');
    await conversation.run();
    await conversation.close();

    // Event 2 deleted on disk with its slot claim and its staged body (the file's second name): a real gap.
    const conversationDir = join(harness.persistenceDir, conversationDirName(conversation.id));
    const eventsDir = join(conversationDir, 'events');
    const files = (await readdir(eventsDir)).filter((name) => name.startsWith('event-')).sort();
    expect(files.length).toBeGreaterThan(3);
    for (const path of [
      join(eventsDir, files[2]!),
      join(eventsDir, '.slots', files[2]!),
      join(eventsDir, '.slots', '00002.json'),
    ]) {
      await rm(path, { force: true });
    }
    const pastGap = files.slice(3);
    const options = { agent: harness.agent(), workspace: harness.workspace, persistenceDir: harness.persistenceDir };

    const damaged = await Conversation.resume(conversation.id, options);
    expect(damaged.log.length).toBe(2);
    const before = await snapshot(conversationDir);
    const error = await damaged.sendMessage('again').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConversationLogGapError);
    expect(error).toMatchObject({
      code: 'conversation_log_gap',
      conversationId: conversation.id,
      missingIndex: 2,
      filesPastGap: pastGap.length,
    });
    expect((error as Error).message).toContain(`Conversation ${conversation.id}`);
    expect((error as Error).message).toContain('repairLogGap: true');
    expect((error as Error).message).toContain('events-past-gap-00002');
    // Nothing was written, not even the checkpoint before the first append.
    expect(await snapshot(conversationDir)).toEqual(before);
    await damaged.close();

    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    const repaired = await Conversation.resume(conversation.id, { ...options, repairLogGap: true });
    await new Promise((resolve) => setImmediate(resolve));
    process.off('warning', onWarning);
    const said = warnings.filter((warning) => (warning as { code?: string }).code === 'X_LOG_GAP_REPAIRED');
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toContain(`event 2 was missing`);
    expect(said[0]!.message).toContain('events-past-gap-00002');
    // The events past the gap are kept beside the log, not dropped.
    expect(
      (await readdir(join(conversationDir, 'events-past-gap-00002'))).filter((name) => name.startsWith('event-')),
    ).toEqual(pastGap);
    expect(repaired.log.length).toBe(2);
    await repaired.sendMessage('again');
    expect((await repaired.run()).status).toBe('finished');
    expect(JSON.stringify(harness.server.requests.at(-1))).toContain('again');
    expect(repaired.log.length).toBeGreaterThan(3);
    await repaired.close();
  });
});
