import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCustomEvent } from '../create/custom-event.js';
import { EventParseError } from '../errors/event-parse-error.js';
import { KindRegistrationError } from '../errors/kind-registration-error.js';
import { parseEvent } from '../json/parse-event.js';
import { serializeEvent } from '../json/serialize-event.js';
import { createEventRegistry, getEventKindOptions, getObservationKindOptions } from './index.js';

const base = { id: 'e1', timestamp: '2026-01-01T00:00:00.000000', source: 'agent' };
const toolCall = { id: 'call_1', name: 'terminal', arguments: '{}', origin: 'completion' };
const actionEvent = (action: Record<string, unknown>) => ({
  ...base,
  thought: [],
  action,
  tool_name: 'terminal',
  tool_call_id: 'call_1',
  tool_call: toolCall,
  llm_response_id: 'r1',
  kind: 'ActionEvent',
});
const observationEvent = (observation: Record<string, unknown>) => ({
  ...base,
  source: 'environment',
  tool_name: 'terminal',
  tool_call_id: 'call_1',
  observation,
  action_id: 'a1',
  kind: 'ObservationEvent',
});

describe('action kinds', () => {
  it('validates a registered action and names the failing path', () => {
    const registry = createEventRegistry();
    registry.registerActionKind('TerminalAction', z.object({ command: z.string(), timeout: z.number().optional() }));
    const ok = parseEvent(actionEvent({ command: 'ls', kind: 'TerminalAction' }), { registry });
    expect(ok.kind === 'ActionEvent' && ok.action).toEqual({ command: 'ls', kind: 'TerminalAction' });
    const error = (() => {
      try {
        parseEvent(actionEvent({ command: 5, kind: 'TerminalAction' }), { registry });
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(EventParseError);
    expect((error as EventParseError).message).toMatch(/^Invalid event \(kind ActionEvent, id e1\): action\.command: /);
  });

  it('keeps unregistered action kinds as they are (forward compatibility), and isolated registries stay isolated', () => {
    const registry = createEventRegistry();
    registry.registerActionKind('TerminalAction', z.object({ command: z.string() }));
    const json = actionEvent({ command: 5, anything: [1], kind: 'TerminalAction' });
    const event = parseEvent(json);
    expect(event.kind === 'ActionEvent' && event.action).toEqual({ command: 5, anything: [1], kind: 'TerminalAction' });
    expect(JSON.stringify(JSON.parse(serializeEvent(event)).action)).toBe(JSON.stringify(json.action));
    expect(() => parseEvent(json, { registry })).toThrow(/action\.command/);
  });

  it('validates the built-in FinishAction and ThinkAction', () => {
    expect(() => parseEvent(actionEvent({ kind: 'FinishAction' }))).toThrow(/action\.message/);
    expect(() => parseEvent(actionEvent({ thought: 1, kind: 'ThinkAction' }))).toThrow(/action\.thought/);
  });

  it('refuses a different schema for a registered kind, accepts the same one again', () => {
    const registry = createEventRegistry();
    const schema = z.object({ command: z.string() });
    registry.registerActionKind('TerminalAction', schema);
    expect(() => registry.registerActionKind('TerminalAction', schema)).not.toThrow();
    expect(() => registry.registerActionKind('TerminalAction', z.object({}))).toThrow(KindRegistrationError);
    expect(() => registry.registerActionKind('X', z.object({ kind: z.literal('Y') }))).toThrow(/literal "X"/);
  });
});

describe('observation kinds', () => {
  it('validates registered observations, keeps content/is_error first and exposes toLlmContent', () => {
    const registry = createEventRegistry();
    const toLlmContent = () => [];
    registry.registerObservationKind('ExitCodeObservation', z.object({ exit_code: z.number().int() }), {
      toLlmContent,
    });
    const event = parseEvent(observationEvent({ exit_code: 0, kind: 'ExitCodeObservation' }), { registry });
    expect(event.kind === 'ObservationEvent' && JSON.stringify(event.observation)).toBe(
      '{"content":[],"is_error":false,"exit_code":0,"kind":"ExitCodeObservation"}',
    );
    expect(() =>
      parseEvent(observationEvent({ exit_code: 'zero', kind: 'ExitCodeObservation' }), { registry }),
    ).toThrow(/observation\.exit_code/);
    expect(getObservationKindOptions('ExitCodeObservation', registry)?.toLlmContent).toBe(toLlmContent);
    expect(getObservationKindOptions('ExitCodeObservation')).toBeUndefined();
    expect(getObservationKindOptions('FinishObservation')?.kind).toBe('FinishObservation');
  });
});

describe('custom event kinds', () => {
  it('parse, validate, create and serialize like built-ins', () => {
    const registry = createEventRegistry();
    const toLlmMessage = () => undefined;
    const note = registry.registerEventKind(
      'NoteEvent',
      z.object({ note: z.string(), source: z.enum(['user', 'agent']).default('user') }),
      {
        toLlmMessage,
      },
    );
    const created = createCustomEvent(note, { note: 'remember' }, { registry });
    expect(note.is(created)).toBe(true);
    expect(created.source).toBe('user');
    expect(Object.keys(created)).toEqual(['id', 'timestamp', 'source', 'note', 'kind']);
    const parsed = parseEvent(JSON.parse(serializeEvent(created as never)), { registry });
    expect(parsed).toEqual(created);
    expect(() => parseEvent({ ...base, note: 1, kind: 'NoteEvent' }, { registry })).toThrow(
      'Invalid event (kind NoteEvent, id e1): note: Invalid input: expected string, received number',
    );
    expect(parseEvent({ ...base, note: 'x', kind: 'NoteEvent' }).kind).toBe('OpaqueEvent');
    expect(registry.getEventKindOptions('NoteEvent')?.toLlmMessage).toBe(toLlmMessage);
    expect(getEventKindOptions('NoteEvent')).toBeUndefined();
    expect(getEventKindOptions('MessageEvent')).toBeUndefined();
  });

  it('cannot take a built-in kind name', () => {
    const registry = createEventRegistry();
    expect(() => registry.registerEventKind('MessageEvent', z.object({}))).toThrow(KindRegistrationError);
    expect(() => registry.registerEventKind('OpaqueEvent', z.object({}))).toThrow(/built-in/);
  });
});
