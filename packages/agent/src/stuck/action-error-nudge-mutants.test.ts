// The nudge names the call that keeps failing, even when the streak is one call long and another tool ran before.
import { describe, expect, it } from 'vitest';
import { action, agentError, message, observation } from './__fixtures__/stuck-events.js';
import { actionErrorNudge } from './action-error-nudge.js';

describe('actionErrorNudge with a threshold of 1', () => {
  it('nudges on the first failure, naming the tool that failed, not the one before it', () => {
    const failing = action('cat missing.txt', { toolName: 'terminal' });
    const alone = [message('user', 'read it'), failing, agentError(failing, 'No such file')];
    expect(actionErrorNudge(alone, { actionError: 1 })?.text).toMatch(
      /^You've called `terminal` with the same arguments 1 times/,
    );

    const earlier = action('view /tmp', { toolName: 'file_editor' });
    const retry = action('cat missing.txt', { toolName: 'terminal' });
    const events = [
      message('user', 'read it'),
      earlier,
      observation(earlier, 'ok'),
      retry,
      agentError(retry, 'No such file'),
    ];
    const nudge = actionErrorNudge(events, { actionError: 1 });
    expect(nudge?.errorEventId).toBe(events.at(-1)!.id);
    expect(nudge?.text).toContain('`terminal`');
    expect(nudge?.text).not.toContain('file_editor');
  });
});
