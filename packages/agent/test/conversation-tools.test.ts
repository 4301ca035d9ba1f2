import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AnyEvent, ObservationEvent } from '@x/events';
import { afterEach, describe, expect, it } from 'vitest';
import { hostPids, PRINT_PID_NAMESPACE } from '../src/testing/index.js';
import { type Harness, startHarness } from './support/harness.js';

let harness: Harness;
afterEach(async () => {
  await harness?.close();
});

const finish = (message: string) => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

function observations(events: readonly AnyEvent[]): ObservationEvent[] {
  return events.filter((event): event is ObservationEvent => event.kind === 'ObservationEvent');
}

/** True once the process is gone (or only a zombie waiting to be reaped); false if it still runs after a minute. */
async function processEnded(pid: number): Promise<boolean> {
  const deadline = performance.now() + 60_000;
  while (performance.now() < deadline) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z')) return true;
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('built-in tools inside a conversation', () => {
  it('keeps the shell between steps, tracks tasks in TASKS.json, and kills the shell on close', async () => {
    harness = await startHarness([
      {
        toolCalls: [
          {
            name: 'terminal',
            arguments: { command: `export STEP=one; sleep 600 & echo "$! $(${PRINT_PID_NAMESPACE})"` },
          },
        ],
      },
      { toolCalls: [{ name: 'terminal', arguments: { command: 'echo "$STEP"' } }] },
      {
        toolCalls: [
          {
            name: 'task_tracker',
            arguments: { command: 'plan', task_list: [{ title: 'Check the shell', status: 'done' }] },
          },
        ],
      },
      finish('Done.'),
    ]);
    const { conversation, events } = await harness.conversation();
    await conversation.sendMessage('Use the tools');
    expect((await conversation.run()).status).toBe('finished');

    const [background, echoed, planned] = observations(events);
    // `$!` is a pid of the sandbox's PID namespace: mapped to the host's while the job runs.
    const [inside, namespace] = String((background!.observation.content[0] as { text: string }).text).split(' ');
    const [pid] = (await hostPids(namespace as string, [Number(inside)])) as [number];
    expect(pid).toBeGreaterThan(0);
    expect((echoed!.observation.content[0] as { text: string }).text).toBe('one');
    expect(planned!.observation).toMatchObject({
      command: 'plan',
      task_list: [{ title: 'Check the shell', notes: '', status: 'done' }],
      kind: 'TaskTrackerObservation',
    });
    const tasks = JSON.parse(await readFile(join(conversation.location, 'TASKS.json'), 'utf8'));
    expect(tasks).toEqual([{ title: 'Check the shell', notes: '', status: 'done' }]);

    expect(() => process.kill(pid, 0)).not.toThrow();
    await conversation.close();
    expect(await processEnded(pid)).toBe(true);
  });
});
