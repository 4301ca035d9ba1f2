import type { AnyEvent } from '@x/events';
import { displayKind, eventSummary } from '../render/event-summary.js';
import type { Output } from '../render/output.js';
import { createVisualizer } from '../render/visualizer.js';
import { createActionTracker } from './action-tracker.js';

/** A pause recorded while a tool action still executes: the run is not paused until that action ends. */
function isPause(event: AnyEvent): boolean {
  if (event.kind === 'PauseEvent') return true;
  return event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status' && event.value === 'paused';
}

const SUB_EVENT_KINDS = new Set([
  'MessageEvent',
  'ActionEvent',
  'AgentErrorEvent',
  'ConversationErrorEvent',
  'HookExecutionEvent',
  'UserRejectObservation',
]);

/**
 * Shows a live run: events as they are recorded, and a spinner (terminal only) saying what the run is
 * waiting for. Events that arrive before `start()` (the system prompt, written while the conversation
 * is created) are held back so the header is printed first. A pause requested while a command runs is
 * shown once that command has finished (the run only stops then).
 */
export function createLiveView(output: Output, model: string) {
  const visualizer = createVisualizer(output);
  const actions = createActionTracker();
  const held: [AnyEvent, number | undefined][] = [];
  const deferred: [AnyEvent, number | undefined][] = [];
  let started = false;
  let running = false;

  const render = (event: AnyEvent, index: number | undefined): void => {
    visualizer.render(event, index);
    if (event.kind === 'ConversationStateUpdateEvent' && event.key === 'execution_status') {
      running = event.value === 'running';
    }
  };

  const show = (event: AnyEvent, index: number | undefined): void => {
    actions.observe(event);
    if (isPause(event) && actions.running() !== undefined) {
      deferred.push([event, index]);
      return;
    }
    render(event, index);
    if (actions.running() === undefined) for (const [later, at] of deferred.splice(0)) render(later, at);
    if (!running || event.kind === 'StreamingDeltaEvent') {
      output.spinner.stop();
      return;
    }
    if (event.kind === 'ActionEvent' && event.action !== undefined) output.spinner.start(`Running ${event.tool_name}…`);
    else output.spinner.start(`Waiting for the model (${model})…`);
  };

  return {
    onEvent(event: AnyEvent, index: number | undefined): void {
      if (started) show(event, index);
      else held.push([event, index]);
    },
    start(): void {
      started = true;
      for (const [event, index] of held.splice(0)) show(event, index);
    },
    /** The tool actions still executing (`terminal: sleep 5`), or undefined. */
    runningAction(): string | undefined {
      return actions.running();
    },
    /** One dim line per notable event of a sub-agent (the delegate tool's child conversations). */
    onSubEvent(agentId: string, event: AnyEvent): void {
      if (!started || !SUB_EVENT_KINDS.has(event.kind)) return;
      output.spinner.stop();
      const c = output.colors;
      output.line(c.dim(`  ↳ ${agentId} · ${displayKind(event)} ${eventSummary(event, 90)}`));
    },
    stop(): void {
      for (const [event, index] of deferred.splice(0)) render(event, index);
      visualizer.flush();
      output.spinner.stop();
    },
  };
}
