import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ArtifactDamagedError, UnknownArtifactError } from '../src/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

describe('a fork and the artifacts of its history', () => {
  it('loads every artifact version its copied events record, and none outside its branch', async () => {
    harness = await startHarness();
    const { conversation, events } = await harness.conversation({ store: harness.memoryStore() });
    await conversation.session.saveArtifact('report.md', 'draft one');
    await conversation.session.saveArtifact('chart.bin', new Uint8Array([1, 2, 3]), { mimeType: 'image/x-test' });
    const branchPoint = events.at(-1)?.id;
    await conversation.session.saveArtifact('report.md', 'draft two');

    const whole = await conversation.fork();
    expect(whole.session.artifacts).toEqual({ 'report.md': 2, 'chart.bin': 1 });
    expect((await whole.session.loadArtifact('report.md', 1)).text()).toBe('draft one');
    expect((await whole.session.loadArtifact('report.md')).text()).toBe('draft two');
    const chart = await whole.session.loadArtifact('chart.bin');
    expect([...chart.data]).toEqual([1, 2, 3]);
    expect(chart.mimeType).toBe('image/x-test');

    // A fork from an event copies that event's branch: the chart's delta, not the report's (a sibling state update).
    const early = await conversation.fork({ fromEventId: branchPoint });
    expect(early.session.artifacts).toEqual({ 'chart.bin': 1 });
    expect([...(await early.session.loadArtifact('chart.bin')).data]).toEqual([1, 2, 3]);
    await expect(early.session.loadArtifact('report.md')).rejects.toBeInstanceOf(UnknownArtifactError);
    // The fork's next version is its own: the source's version is not overwritten or shown.
    expect(await early.session.saveArtifact('chart.bin', new Uint8Array([9]))).toEqual({
      name: 'chart.bin',
      version: 2,
    });
    expect([...(await early.session.loadArtifact('chart.bin')).data]).toEqual([9]);
    await conversation.session.saveArtifact('chart.bin', new Uint8Array([7]));
    expect([...(await conversation.session.loadArtifact('chart.bin', 2)).data]).toEqual([7]);
    expect([...(await early.session.loadArtifact('chart.bin', 2)).data]).toEqual([9]);
    for (const open of [whole, early, conversation]) await open.close();
  });

  it('names a damaged artifact file instead of failing with a TypeError or returning wrong bytes', async () => {
    harness = await startHarness();
    const { conversation } = await harness.conversation();
    await conversation.session.saveArtifact('notes.md', 'kept');
    const file = join(harness.persistenceDir, conversation.directory, 'artifacts', 'notes.md', 'v1');
    for (const [content, why] of [
      ['{"mime_type": "text/plain", "enc', /not JSON/],
      ['null', /no mime_type/],
      ['{"mime_type": "text/plain", "encoding": "hex", "data": "00"}', /not base64-encoded/],
      ['{"mime_type": "text/plain", "encoding": "base64", "data": "a b"}', /data is not base64/],
      ['{"mime_type": "text/plain", "encoding": "base64"}', /data is not base64/],
    ] as const) {
      await writeFile(file, content);
      const error = await conversation.session.loadArtifact('notes.md').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ArtifactDamagedError);
      expect(error).toMatchObject({ code: 'artifact_damaged', artifactName: 'notes.md', version: 1 });
      expect((error as Error).message).toMatch(why);
    }
    await writeFile(file, JSON.stringify({ mime_type: 'text/plain', encoding: 'base64', data: 'a2VwdA==' }));
    expect((await conversation.session.loadArtifact('notes.md')).text()).toBe('kept');
    await conversation.close();
  });
});
