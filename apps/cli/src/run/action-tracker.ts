import type { AnyEvent } from '@x/events';

/** Which tool actions of a live run are still executing: an ActionEvent until the event that answers its call. */
export function createActionTracker() {
  const running = new Map<string, string>();
  return {
    observe(event: AnyEvent): void {
      const callId = (event as { tool_call_id?: unknown }).tool_call_id;
      if (typeof callId !== 'string') return;
      if (event.kind === 'ActionEvent') {
        if (event.action === undefined || event.action === null) return;
        const command = (event.action as { command?: unknown }).command;
        running.set(callId, typeof command === 'string' ? `${event.tool_name}: ${command}` : event.tool_name);
      } else {
        running.delete(callId);
      }
    },
    /** A description of the actions still running (`terminal: sleep 5`), or undefined when none is. */
    running(): string | undefined {
      return running.size === 0 ? undefined : [...running.values()].join(', ');
    },
  };
}
