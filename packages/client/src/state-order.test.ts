import { createEvent } from '@x/events';
import { describe, expect, it } from 'vitest';
import { initialStateOrder, isNewerStateUpdate, stateOrderAfter } from './state-order.js';

const at = (second: number) => `2026-01-01T00:00:${String(second).padStart(2, '0')}.000000`;
const fullState = (value: Record<string, unknown>, second: number) =>
  createEvent('ConversationStateUpdateEvent', { key: 'full_state', value, timestamp: at(second) });
const statusUpdate = (status: string, second: number) =>
  createEvent('ConversationStateUpdateEvent', { key: 'execution_status', value: status, timestamp: at(second) });

describe('StateOrder', () => {
  it('applies every field update before any snapshot', () => {
    expect(isNewerStateUpdate(initialStateOrder, statusUpdate('running', 1), 0)).toBe(true);
    expect(isNewerStateUpdate(initialStateOrder, statusUpdate('running', 1), undefined)).toBe(true);
  });

  it('orders by log index after a snapshot with event_count, whatever the timestamps say', () => {
    const order = stateOrderAfter(fullState({ execution_status: 'finished', event_count: 5 }, 1));
    expect(isNewerStateUpdate(order, statusUpdate('running', 9), 4)).toBe(false);
    expect(isNewerStateUpdate(order, statusUpdate('running', 0), 5)).toBe(true);
    expect(isNewerStateUpdate(order, statusUpdate('running', 0), undefined)).toBe(true);
  });

  it('orders by timestamp after a snapshot without event_count (a reference server)', () => {
    const order = stateOrderAfter(fullState({ execution_status: 'finished' }, 5));
    expect(isNewerStateUpdate(order, statusUpdate('running', 3), 10)).toBe(false);
    expect(isNewerStateUpdate(order, statusUpdate('running', 5), 0)).toBe(true);
    expect(stateOrderAfter(fullState({ event_count: 2 }, 6))).toEqual({ reflectedCount: 2, asOf: undefined });
  });
});
