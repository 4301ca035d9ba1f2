import type { ScriptedReply } from '@x/agent/testing';
import type { AnyEvent } from '@x/events';

/** The part of a conversation the scenarios drive: implemented over the local `Conversation` and over `RemoteConversation`. */
export interface ScenarioConversation {
  sendMessage(text: string): Promise<void>;
  /** Runs until the run ends; resolves with the status. */
  run(): Promise<string>;
  pause(): Promise<void>;
  rejectPendingActions(reason: string): Promise<void>;
  status(): string | undefined;
  /** Every persisted event, in log order. */
  events(): Promise<AnyEvent[]>;
}

export interface ScenarioDriver {
  readonly name: string;
  /** A new conversation whose model answers from `script`. */
  start(options: { script: ScriptedReply[]; confirmationPolicy?: { kind: string } }): Promise<ScenarioConversation>;
  close(): Promise<void>;
}

export interface Scenario {
  readonly name: string;
  readonly script: ScriptedReply[];
  readonly confirmationPolicy?: { kind: string };
  /** Drives the conversation and checks it along the way; resolves with what must match across drivers. */
  play(conversation: ScenarioConversation, expect: ScenarioExpect): Promise<void>;
  /** The expected outline of the log (see `outline`). */
  readonly outline: string[];
}

/** Assertion helpers handed to scenarios so they stay independent of the test runner. */
export interface ScenarioExpect {
  equal(actual: unknown, expected: unknown, what: string): void;
  waitFor(predicate: () => boolean, what: string): Promise<void>;
}

/** A driver-independent outline of a log: the kinds (with tool names), without state-update events. */
export function outline(events: readonly AnyEvent[]): string[] {
  return events
    .filter((event) => event.kind !== 'ConversationStateUpdateEvent')
    .map((event) =>
      'tool_name' in event && typeof event.tool_name === 'string' ? `${event.kind}:${event.tool_name}` : event.kind,
    );
}

const terminal = (command: string): ScriptedReply => ({
  toolCalls: [{ name: 'terminal', arguments: { command, security_risk: 'LOW', summary: command } }],
});
const finish = (message: string): ScriptedReply => ({ toolCalls: [{ name: 'finish', arguments: { message } }] });

export const scenarios: Scenario[] = [
  {
    name: 'tool use, then finish',
    script: [terminal('echo scenario-output'), finish('done')],
    async play(conversation, expect) {
      await conversation.sendMessage('run a command');
      expect.equal(await conversation.run(), 'finished', 'run status');
      const events = await conversation.events();
      const observation = events.find((event) => event.kind === 'ObservationEvent');
      expect.equal(JSON.stringify(observation).includes('scenario-output'), true, 'the command output is observed');
    },
    outline: [
      'SystemPromptEvent',
      'MessageEvent',
      'ActionEvent:terminal',
      'ObservationEvent:terminal',
      'ActionEvent:finish',
      'ObservationEvent:finish',
    ],
  },
  {
    // Pausing between steps. (Pausing during a step is not shared: the local run loop of @x/agent
    // currently takes the next step anyway, while the server's post-pause snapshot ends a remote wait.)
    name: 'pause, then resume',
    script: [terminal('echo paused-step'), finish('resumed')],
    async play(conversation, expect) {
      await conversation.sendMessage('pause first');
      await conversation.pause();
      await expect.waitFor(() => conversation.status() === 'paused', 'the paused status');
      expect.equal(await conversation.run(), 'finished', 'status after resuming');
    },
    outline: [
      'SystemPromptEvent',
      'MessageEvent',
      'PauseEvent',
      'ActionEvent:terminal',
      'ObservationEvent:terminal',
      'ActionEvent:finish',
      'ObservationEvent:finish',
    ],
  },
  {
    name: 'confirmation held, then confirmed',
    script: [terminal('echo confirmed-output'), finish('done')],
    confirmationPolicy: { kind: 'AlwaysConfirm' },
    async play(conversation, expect) {
      await conversation.sendMessage('needs confirmation');
      expect.equal(await conversation.run(), 'waiting_for_confirmation', 'status while held');
      expect.equal(
        (await conversation.events()).filter((event) => event.kind === 'ObservationEvent').length,
        0,
        'nothing ran yet',
      );
      // Each run confirms what is held; under AlwaysConfirm the finish action is held in turn.
      let status = await conversation.run();
      for (let attempt = 0; status === 'waiting_for_confirmation' && attempt < 3; attempt++)
        status = await conversation.run();
      expect.equal(status, 'finished', 'status after confirming');
    },
    outline: [
      'SystemPromptEvent',
      'MessageEvent',
      'ActionEvent:terminal',
      'ObservationEvent:terminal',
      'ActionEvent:finish',
      'ObservationEvent:finish',
    ],
  },
  {
    name: 'confirmation rejected',
    script: [terminal('echo never-runs'), { content: 'Understood, I will not run it.' }],
    confirmationPolicy: { kind: 'AlwaysConfirm' },
    async play(conversation, expect) {
      await conversation.sendMessage('needs confirmation');
      expect.equal(await conversation.run(), 'waiting_for_confirmation', 'status while held');
      await conversation.rejectPendingActions('Not allowed');
      await expect.waitFor(() => conversation.status() === 'idle', 'the idle status after rejecting');
      expect.equal(await conversation.run(), 'finished', 'status after the model answers the rejection');
      const rejection = (await conversation.events()).find((event) => event.kind === 'UserRejectObservation');
      expect.equal(
        rejection?.kind === 'UserRejectObservation' && rejection.rejection_reason,
        'Not allowed',
        'rejection reason',
      );
    },
    outline: [
      'SystemPromptEvent',
      'MessageEvent',
      'ActionEvent:terminal',
      'UserRejectObservation:terminal',
      'MessageEvent',
    ],
  },
];
