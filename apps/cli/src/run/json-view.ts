import type { AnyEvent } from '@x/events';
import { eventToJson } from '@x/events';
import type { Output } from '../render/output.js';
import { createActionTracker } from './action-tracker.js';

/**
 * `x run --json`: every event of the run as one JSON object a line (NDJSON) on stdout, in the reference's
 * format (the same JSON as the event files), and nothing else on stdout. Events recorded before `start()`
 * (the system prompt) are held back until then, as the live view does.
 */
export function createJsonView(write: (text: string) => void) {
  const held: AnyEvent[] = [];
  const actions = createActionTracker();
  let started = false;
  const emit = (event: AnyEvent): void => {
    actions.observe(event);
    write(`${JSON.stringify(eventToJson(event))}\n`);
  };
  return {
    onEvent(event: AnyEvent): void {
      if (started) emit(event);
      else held.push(event);
    },
    start(): void {
      started = true;
      for (const event of held.splice(0)) emit(event);
    },
    /**
     * Sub-agents' events are not written: stdout holds exactly this conversation's log (each sub-agent's
     * conversation is saved on its own and can be read with `x events`).
     */
    onSubEvent(_agentId: string, _event: AnyEvent): void {},
    /** The tool actions still executing, or undefined (for the Ctrl-C message). */
    runningAction(): string | undefined {
      return actions.running();
    },
    stop(): void {},
  };
}

/** An Output whose every line goes to stderr (with stderr's colors): what `--json` leaves for people. */
export function stderrOnly(output: Output): Output {
  return {
    colors: output.errorColors,
    errorColors: output.errorColors,
    spinner: output.spinner,
    stdinIsTTY: output.stdinIsTTY,
    line: (text = '') => output.error(text),
    write: (text) => output.error(text.replace(/\n$/, '')),
    error: (text) => output.error(text),
  };
}
