import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ConversationManager } from './conversation-manager.js';
import { resumeInterruptedRuns } from './resume-on-start.js';

// Which runs a single server resumes at start-up with `interruptedActions`: only a conversation recorded as
// running whose opening decided to resume it. One left to a human (`confirm`: waiting for confirmation) must not
// be run, since a run would execute the held action on the user's behalf; nor one that was not running.

const errors: string[] = [];
const logger = {
  error: (_fields: unknown, message?: string) => errors.push(String(message)),
  warn: () => undefined,
  info: () => undefined,
  debug: () => undefined,
} as unknown as FastifyBaseLogger;

interface Fake {
  id: string;
  status: string;
  /** What opening decides (recordInterruptedAction's answer). */
  resumes: boolean;
  failsToOpen?: boolean;
}

function managerOf(fakes: Fake[]) {
  const started: string[] = [];
  const opened: string[] = [];
  const managed = fakes.map((fake) => {
    const entry = {
      id: fake.id,
      meta: { execution_status: fake.status },
      resumeAfterRestart: false,
      open: async () => {
        opened.push(fake.id);
        if (fake.failsToOpen === true) throw new Error(`cannot open ${fake.id}`);
        entry.resumeAfterRestart = fake.resumes;
      },
      startRun: async () => {
        started.push(fake.id);
      },
    };
    return entry;
  });
  const manager = { list: async () => managed } as unknown as ConversationManager;
  return { manager, managed, started, opened };
}

describe('resuming interrupted runs at start-up', () => {
  it('resumes only the running conversations whose opening chose to resume them', async () => {
    const { manager, managed, started, opened } = managerOf([
      { id: 'report', status: 'running', resumes: true },
      { id: 'confirm', status: 'running', resumes: false },
      { id: 'paused', status: 'paused', resumes: true },
      { id: 'waiting', status: 'waiting_for_confirmation', resumes: true },
      { id: 'broken', status: 'running', resumes: true, failsToOpen: true },
      { id: 'also', status: 'running', resumes: true },
    ]);
    errors.length = 0;
    expect(await resumeInterruptedRuns(manager, logger)).toBe(2);
    expect(started).toEqual(['report', 'also']);
    expect(opened).toEqual(['report', 'confirm', 'broken', 'also']);
    // Resumed once: a later call (or a request) does not resume it again.
    expect(managed.map((entry) => entry.resumeAfterRestart)).toEqual([false, false, false, false, false, false]);
    expect(errors).toEqual(['an interrupted run could not be resumed']);
  });
});
