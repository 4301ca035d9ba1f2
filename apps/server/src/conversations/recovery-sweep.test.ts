import { createFileStoreLeases, createMemoryFileStore } from '@x/store';
import { describe, expect, it } from 'vitest';
import { recordingLogger } from '../../test/support/in-process-manager.js';
import type { ConversationManager } from './conversation-manager.js';
import { startRecoverySweep } from './recovery-sweep.js';

describe('the recovery sweep', () => {
  it('reports a conversation that cannot be recovered once as an error, then only at debug level', async () => {
    const { logger, lines } = recordingLogger();
    let failure = 'base_state.json is not valid JSON';
    const manager: Pick<ConversationManager, 'get'> = {
      get: async () =>
        ({
          id: 'c0ffee',
          isRunning: false,
          open: async () => {
            throw new Error(failure);
          },
        }) as unknown as Awaited<ReturnType<ConversationManager['get']>>,
    };
    const sweeper = startRecoverySweep({
      manager,
      expiredLeases: async () => ['0123456789abcdef0123456789abcdef'],
      leases: createFileStoreLeases(createMemoryFileStore()),
      intervalMs: 3_600_000,
      logger,
    });
    try {
      for (let round = 0; round < 3; round++) expect(await sweeper.sweep()).toBe(0);
      expect(lines).toEqual([
        'error: recovery of an expired run failed',
        'debug: recovery of an expired run failed again',
        'debug: recovery of an expired run failed again',
      ]);
      // A different failure is news again.
      failure = 'event 7 is corrupt';
      await sweeper.sweep();
      expect(lines.at(-1)).toBe('error: recovery of an expired run failed');
    } finally {
      await sweeper.stop();
    }
  });
});
