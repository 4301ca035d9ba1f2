import { describe, expect, it } from 'vitest';
import { ServerConfigError } from '../../config/server-config-error.js';
import { ServerError } from '../../errors.js';
import { type ResponseObject, startedResponse } from './response-object.js';
import { DEFAULT_RESPONSE_CAPACITY, ResponseStore } from './response-store.js';

const echo = {
  model: 'm',
  instructions: null,
  metadata: {},
  previous_response_id: null,
  store: true,
  parallel_tool_calls: true,
};
const responses = (count: number): ResponseObject[] => Array.from({ length: count }, () => startedResponse(echo));
const keep = (store: ResponseStore, response: ResponseObject): void =>
  store.set({ response, conversationId: 'x', system: '' });
const kept = (store: ResponseStore, all: ResponseObject[]): string[] =>
  all.filter((response) => store.get(response.id) !== undefined).map((response) => response.id);

describe('ResponseStore', () => {
  it('keeps the newest responses up to its capacity, a newer state replacing the older', () => {
    const store = new ResponseStore(2);
    const [a, b, c] = responses(3) as [ResponseObject, ResponseObject, ResponseObject];
    keep(store, a);
    keep(store, b);
    keep(store, { ...b, status: 'completed' });
    expect(store.get(b.id)?.response.status).toBe('completed');
    keep(store, c);
    expect(kept(store, [a, b, c])).toEqual([b.id, c.id]);
  });

  it('forgets the response written longest ago: one that just ended stays, to be continued', () => {
    const store = new ResponseStore(2);
    const [long, quick, next] = responses(3) as [ResponseObject, ResponseObject, ResponseObject];
    keep(store, long);
    keep(store, quick);
    keep(store, { ...quick, status: 'completed' });
    keep(store, { ...long, status: 'completed' });
    keep(store, next);
    expect(kept(store, [long, quick, next])).toEqual([long.id, next.id]);
    expect(store.get(long.id)?.response.status).toBe('completed');
  });

  it('keeps a response forgotten while it ran as the newest when it ends, forgetting the oldest other', () => {
    const store = new ResponseStore(2);
    const [long, b, c] = responses(3) as [ResponseObject, ResponseObject, ResponseObject];
    keep(store, long);
    keep(store, b);
    keep(store, c);
    expect(store.get(long.id)).toBeUndefined();
    keep(store, { ...long, status: 'completed' });
    expect(kept(store, [long, b, c])).toEqual([long.id, c.id]);
  });

  it('keeps a response written anew in place of its older state, forgetting no other', () => {
    const store = new ResponseStore(2);
    const [a, b] = responses(2) as [ResponseObject, ResponseObject];
    keep(store, a);
    keep(store, b);
    keep(store, { ...b, status: 'completed' });
    expect(kept(store, [a, b])).toEqual([a.id, b.id]);
    keep(store, { ...a, status: 'completed' });
    expect(kept(store, [a, b])).toEqual([a.id, b.id]);
    expect([store.get(a.id)?.response.status, store.get(b.id)?.response.status]).toEqual(['completed', 'completed']);
  });

  it('with a capacity of 0 keeps none, as if every request said store: false', () => {
    const store = new ResponseStore(0);
    const [a, b] = responses(2) as [ResponseObject, ResponseObject];
    keep(store, a);
    keep(store, { ...a, status: 'completed' });
    keep(store, b);
    expect(kept(store, [a, b])).toEqual([]);
  });

  it('with a capacity of 1 keeps the last one written', () => {
    const store = new ResponseStore(1);
    const all = responses(3);
    for (const response of all) keep(store, response);
    expect(kept(store, all)).toEqual([all[2]?.id]);
  });

  it(`keeps ${DEFAULT_RESPONSE_CAPACITY} by default`, () => {
    const store = new ResponseStore();
    const all = responses(DEFAULT_RESPONSE_CAPACITY + 1);
    for (const response of all) keep(store, response);
    expect(kept(store, all)).toEqual(all.slice(1).map((response) => response.id));
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY])(
    'refuses a capacity of %s, naming the setting',
    (capacity) => {
      let thrown: unknown;
      try {
        new ResponseStore(capacity);
      } catch (error) {
        thrown = error;
      }
      expect(ServerConfigError.isInstance(thrown)).toBe(true);
      expect(ServerError.isInstance(thrown)).toBe(true);
      expect(thrown).toMatchObject({ setting: 'responseStore.capacity', code: 'invalid_server_config' });
      expect((thrown as Error).message).toBe(
        `The response store's capacity must be a whole number of responses, 0 or more (0 keeps none), not ${capacity}`,
      );
    },
  );
});
