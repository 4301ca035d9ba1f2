import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { KindRegistrationError } from '../errors/kind-registration-error.js';
import { createEventRegistry, type ObjectSchema } from './index.js';

const registrationError = (register: () => unknown): KindRegistrationError => {
  try {
    register();
  } catch (error) {
    if (error instanceof KindRegistrationError) return error;
    throw error;
  }
  throw new Error('expected the registration to be refused');
};

describe('kind names and kind fields', () => {
  it('refuses an empty or non-string kind for every kind of registration', () => {
    const registry = createEventRegistry();
    const schema = z.object({});
    for (const register of [
      () => registry.registerActionKind('', schema),
      () => registry.registerObservationKind('', schema),
      () => registry.registerEventKind('', schema),
      () => registry.registerActionKind(7 as unknown as string, schema),
    ]) {
      expect(registrationError(register).message).toContain('a kind must be a non-empty string');
    }
    expect(registry.kinds().actions).not.toContain('');
  });

  it('refuses a schema that is not a zod object schema', () => {
    const registry = createEventRegistry();
    const error = registrationError(() => registry.registerObservationKind('X', z.string() as unknown as ObjectSchema));
    expect(error.message).toContain('the schema must be a zod object schema');
    expect(error.kind).toBe('X');
  });

  it('accepts `kind` declared as its own literal, refuses any other declaration of it', () => {
    const registry = createEventRegistry();
    expect(() => registry.registerActionKind('X', z.object({ kind: z.literal('X') }))).not.toThrow();
    for (const kind of [z.string(), z.literal(['Y', 'Z']), z.literal(['Z', 'Y']), z.literal('Z')]) {
      expect(() => registry.registerActionKind('Y', z.object({ kind }))).toThrow(/literal "Y"/);
    }
    expect(() => registry.registerEventKind('NoteEvent', z.object({ kind: z.literal('Other') }))).toThrow(
      /literal "NoteEvent"/,
    );
  });

  it('refuses a different schema for a registered observation or event kind, accepts the same one again', () => {
    const registry = createEventRegistry();
    const schema = z.object({ n: z.number() });
    registry.registerObservationKind('CountObservation', schema);
    expect(() => registry.registerObservationKind('CountObservation', schema)).not.toThrow();
    expect(() => registry.registerObservationKind('CountObservation', z.object({}))).toThrow(/different schema/);
    const first = registry.registerEventKind('CountEvent', schema);
    const again = registry.registerEventKind('CountEvent', schema);
    // The same full schema: events parsed before and after the second registration validate alike.
    expect(again.schema).toBe(first.schema);
    expect(() => registry.registerEventKind('CountEvent', z.object({}))).toThrow(/different schema/);
  });
});

describe('registered options', () => {
  it('lists kinds in registration order after the built-ins, each once', () => {
    const registry = createEventRegistry();
    const builtins = registry.kinds();
    expect(builtins.actions.slice(0, 2)).toEqual(['FinishAction', 'ThinkAction']);
    expect(builtins.observations.slice(0, 2)).toEqual(['FinishObservation', 'ThinkObservation']);
    expect(builtins.actions).toEqual(
      expect.arrayContaining(['ApplyPatchAction', 'GlobAction', 'GrepAction', 'InvokeSkillAction']),
    );
    expect(builtins.observations).toEqual(
      expect.arrayContaining(['TerminalObservation', 'GlobObservation', 'BrowserObservation', 'TaskObservation']),
    );
    expect(builtins.events).toEqual([]);
    registry.registerActionKind('B', z.object({}));
    registry.registerActionKind('A', z.object({}));
    registry.registerEventKind('NoteEvent', z.object({}));
    expect(registry.kinds().actions.slice(-2)).toEqual(['B', 'A']);
    expect(registry.kinds().events).toEqual(['NoteEvent']);
  });

  it('gives the built-in observations rendered their own way a toLlmContent, and the others none', () => {
    const registry = createEventRegistry();
    for (const kind of ['TerminalObservation', 'BrowserObservation', 'TaskObservation', 'ConsultTomObservation']) {
      expect(typeof registry.getObservationKindOptions(kind)?.toLlmContent).toBe('function');
    }
    for (const kind of ['GlobObservation', 'FinishObservation']) {
      const options = registry.getObservationKindOptions(kind);
      expect(options?.kind).toBe(kind);
      expect(Object.keys(options ?? {})).toEqual(['kind', 'schema']);
    }
  });

  it('keeps hooks given as undefined out of the options, and hands out frozen options', () => {
    const registry = createEventRegistry();
    registry.registerObservationKind('PlainObservation', z.object({}), { toLlmContent: undefined });
    registry.registerEventKind('NoteEvent', z.object({}), { toLlmMessage: undefined });
    expect(Object.keys(registry.getObservationKindOptions('PlainObservation') ?? {})).toEqual(['kind', 'schema']);
    const eventOptions = registry.getEventKindOptions('NoteEvent');
    expect(Object.keys(eventOptions ?? {})).toEqual(['kind', 'schema']);
    expect(registry.getEventKindOptions('Missing')).toBeUndefined();
    expect(Object.isFrozen(registry.getActionKindOptions('FinishAction'))).toBe(true);
    expect(Object.isFrozen(registry.getObservationKindOptions('PlainObservation'))).toBe(true);
  });

  it('builds an event kind’s schema from the base fields, the kind’s fields and its literal kind', () => {
    const registry = createEventRegistry();
    const note = registry.registerEventKind('NoteEvent', z.object({ note: z.string() }));
    expect(Object.keys(note.schema.shape)).toEqual(['id', 'timestamp', 'source', 'parent_id', 'note', 'kind']);
    const event = { id: 'e1', timestamp: '2026-01-01T00:00:00', source: 'user', note: 'n', kind: 'NoteEvent' };
    expect(note.schema.safeParse(event).success).toBe(true);
    expect(note.schema.safeParse({ ...event, kind: 'OtherEvent' }).success).toBe(false);
    expect(Object.isFrozen(note)).toBe(true);
  });

  it('narrows with is and match only events of the handle’s kind', () => {
    const note = createEventRegistry().registerEventKind('NoteEvent', z.object({ note: z.string() }));
    const event = { kind: 'NoteEvent', note: 'n' };
    expect(note.is(event)).toBe(true);
    expect(note.match(event)).toBe(event);
    for (const other of [{ kind: 'OtherEvent' }, null, 'NoteEvent', undefined, {}]) {
      expect(note.is(other)).toBe(false);
      expect(note.match(other)).toBeUndefined();
    }
  });
});
