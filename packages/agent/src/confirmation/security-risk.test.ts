import type { SecurityRisk } from '@x/events';
import { describe, expect, it } from 'vitest';
import { AgentError } from '../errors.js';
import { compareRisk, isRiskier } from './security-risk.js';
import { UnknownRiskComparisonError } from './unknown-risk-comparison-error.js';

const ordered: SecurityRisk[] = ['LOW', 'MEDIUM', 'HIGH'];

describe('compareRisk', () => {
  it('throws the typed error for a value outside the ordering rather than answering NaN', () => {
    expect(() => compareRisk('CRITICAL' as unknown as SecurityRisk, 'HIGH')).toThrow(UnknownRiskComparisonError);
    expect(() => compareRisk('LOW', 'low' as unknown as SecurityRisk)).toThrow(UnknownRiskComparisonError);
  });

  it('orders LOW < MEDIUM < HIGH', () => {
    expect(compareRisk('LOW', 'MEDIUM')).toBeLessThan(0);
    expect(compareRisk('MEDIUM', 'HIGH')).toBeLessThan(0);
    expect(compareRisk('HIGH', 'LOW')).toBeGreaterThan(0);
    expect(compareRisk('MEDIUM', 'MEDIUM')).toBe(0);
    expect([...ordered].reverse().sort(compareRisk)).toEqual(ordered);
  });

  it.each([
    ['UNKNOWN', 'LOW'],
    ['HIGH', 'UNKNOWN'],
    ['UNKNOWN', 'UNKNOWN'],
  ] as const)('throws a typed error comparing %s with %s', (a, b) => {
    let thrown: unknown;
    try {
      compareRisk(a, b);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnknownRiskComparisonError);
    expect(AgentError.isInstance(thrown)).toBe(true);
    expect(UnknownRiskComparisonError.isInstance(thrown)).toBe(true);
    const error = thrown as UnknownRiskComparisonError;
    expect(error.code).toBe('unknown_risk_comparison');
    expect(error.risks).toEqual([a, b]);
    expect(error.message).toContain('UNKNOWN');
  });
});

describe('isRiskier', () => {
  it('is reflexive by default and strict when asked', () => {
    expect(isRiskier('HIGH', 'HIGH')).toBe(true);
    expect(isRiskier('HIGH', 'HIGH', { reflexive: false })).toBe(false);
    expect(isRiskier('HIGH', 'MEDIUM', { reflexive: false })).toBe(true);
    expect(isRiskier('LOW', 'MEDIUM')).toBe(false);
  });

  it('matches the rank order for every known pair', () => {
    for (const [i, a] of ordered.entries()) {
      for (const [j, b] of ordered.entries()) {
        expect(isRiskier(a, b)).toBe(i >= j);
        expect(isRiskier(a, b, { reflexive: false })).toBe(i > j);
      }
    }
  });

  it('throws for UNKNOWN', () => {
    expect(() => isRiskier('UNKNOWN', 'HIGH')).toThrow(UnknownRiskComparisonError);
    expect(() => isRiskier('LOW', 'UNKNOWN', { reflexive: false })).toThrow(UnknownRiskComparisonError);
  });
});
