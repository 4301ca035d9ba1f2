import type { SecurityRisk } from '@x/events';
import { describe, expect, it } from 'vitest';
import {
  type ConfirmationPolicyInput,
  confirmationPolicySchema,
  isConfirmationPolicyActive,
  parseConfirmationPolicy,
  shouldConfirm,
} from './confirmation-policy.js';
import { InvalidConfirmationPolicyError } from './invalid-confirmation-policy-error.js';

const risks: SecurityRisk[] = ['UNKNOWN', 'LOW', 'MEDIUM', 'HIGH'];

function decisions(policy: ConfirmationPolicyInput): Record<SecurityRisk, boolean> {
  return Object.fromEntries(risks.map((risk) => [risk, shouldConfirm(policy, risk)])) as Record<SecurityRisk, boolean>;
}

describe('confirmationPolicySchema', () => {
  it('answers the default policy, known parsed from the start, as the schema parses it (a copy each time)', () => {
    const parsed = parseConfirmationPolicy({ kind: 'NeverConfirm' });
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(confirmationPolicySchema.parse({ kind: 'NeverConfirm' })));
    (parsed as { kind: string }).kind = 'AlwaysConfirm';
    expect(parseConfirmationPolicy({ kind: 'NeverConfirm' })).toEqual({ kind: 'NeverConfirm' });
    expect(parseConfirmationPolicy({ kind: 'NeverConfirm', threshold: undefined })).toEqual({ kind: 'NeverConfirm' });
  });

  it('parses the reference JSON and fills ConfirmRisky defaults', () => {
    expect(confirmationPolicySchema.parse({ kind: 'AlwaysConfirm' })).toEqual({ kind: 'AlwaysConfirm' });
    expect(confirmationPolicySchema.parse({ kind: 'NeverConfirm' })).toEqual({ kind: 'NeverConfirm' });
    expect(confirmationPolicySchema.parse({ kind: 'ConfirmRisky' })).toEqual({
      kind: 'ConfirmRisky',
      threshold: 'HIGH',
      confirm_unknown: true,
    });
    expect(confirmationPolicySchema.parse({ kind: 'ConfirmRisky', threshold: null, confirm_unknown: null })).toEqual({
      kind: 'ConfirmRisky',
      threshold: 'HIGH',
      confirm_unknown: true,
    });
    expect(
      confirmationPolicySchema.parse({ threshold: 'MEDIUM', confirm_unknown: false, kind: 'ConfirmRisky' }),
    ).toEqual({ kind: 'ConfirmRisky', threshold: 'MEDIUM', confirm_unknown: false });
  });

  it('rejects threshold UNKNOWN and unknown kinds with a typed error naming the field', () => {
    expect(confirmationPolicySchema.safeParse({ kind: 'ConfirmRisky', threshold: 'UNKNOWN' }).success).toBe(false);
    const error = captureError(() => parseConfirmationPolicy({ kind: 'ConfirmRisky', threshold: 'UNKNOWN' }));
    expect(error).toBeInstanceOf(InvalidConfirmationPolicyError);
    expect(error.issues.map((issue) => issue.path)).toEqual(['threshold']);
    expect(error.message).toContain('threshold');
    const unknownKind = captureError(() => parseConfirmationPolicy({ kind: 'SometimesConfirm' }));
    expect(unknownKind.issues[0]?.path).toBe('kind');
  });
});

describe('shouldConfirm', () => {
  it('ConfirmRisky confirms a risk that is none of the four (a caller not held to the type), whatever the threshold', () => {
    for (const bogus of ['CRITICAL', 'high', undefined, '']) {
      const risk = bogus as unknown as SecurityRisk;
      expect(shouldConfirm({ kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: false }, risk)).toBe(true);
      expect(shouldConfirm({ kind: 'NeverConfirm' }, risk)).toBe(false);
    }
  });

  it('AlwaysConfirm confirms everything and NeverConfirm nothing', () => {
    expect(decisions({ kind: 'AlwaysConfirm' })).toEqual({ UNKNOWN: true, LOW: true, MEDIUM: true, HIGH: true });
    expect(decisions({ kind: 'NeverConfirm' })).toEqual({ UNKNOWN: false, LOW: false, MEDIUM: false, HIGH: false });
  });

  it('ConfirmRisky confirms risks at or above the threshold (reflexive: HIGH ≥ HIGH)', () => {
    expect(decisions({ kind: 'ConfirmRisky', threshold: 'LOW', confirm_unknown: false })).toEqual({
      UNKNOWN: false,
      LOW: true,
      MEDIUM: true,
      HIGH: true,
    });
    expect(decisions({ kind: 'ConfirmRisky', threshold: 'MEDIUM', confirm_unknown: false })).toEqual({
      UNKNOWN: false,
      LOW: false,
      MEDIUM: true,
      HIGH: true,
    });
    expect(decisions({ kind: 'ConfirmRisky', threshold: 'HIGH', confirm_unknown: false })).toEqual({
      UNKNOWN: false,
      LOW: false,
      MEDIUM: false,
      HIGH: true,
    });
  });

  it('ConfirmRisky answers confirm_unknown for UNKNOWN, defaulting to true', () => {
    expect(shouldConfirm({ kind: 'ConfirmRisky' }, 'UNKNOWN')).toBe(true);
    expect(shouldConfirm({ kind: 'ConfirmRisky', confirm_unknown: true }, 'UNKNOWN')).toBe(true);
    expect(shouldConfirm({ kind: 'ConfirmRisky', confirm_unknown: false }, 'UNKNOWN')).toBe(false);
    expect(decisions({ kind: 'ConfirmRisky' })).toEqual({ UNKNOWN: true, LOW: false, MEDIUM: false, HIGH: true });
  });

  it('rejects an invalid policy instead of guessing', () => {
    expect(() => shouldConfirm({ kind: 'ConfirmRisky', threshold: 'UNKNOWN' } as never, 'HIGH')).toThrow(
      InvalidConfirmationPolicyError,
    );
  });
});

describe('isConfirmationPolicyActive', () => {
  it('is false only for NeverConfirm', () => {
    expect(isConfirmationPolicyActive({ kind: 'NeverConfirm' })).toBe(false);
    expect(isConfirmationPolicyActive({ kind: 'AlwaysConfirm' })).toBe(true);
    expect(isConfirmationPolicyActive({ kind: 'ConfirmRisky' })).toBe(true);
  });
});

function captureError(run: () => unknown): InvalidConfirmationPolicyError {
  try {
    run();
  } catch (error) {
    if (InvalidConfirmationPolicyError.isInstance(error)) return error as InvalidConfirmationPolicyError;
    throw error;
  }
  throw new Error('expected InvalidConfirmationPolicyError');
}

describe('parseConfirmationPolicy, asked every step', () => {
  it('gives what the schema gives, each caller its own copy, for every input seen again', () => {
    const inputs: unknown[] = [
      { kind: 'NeverConfirm' },
      { kind: 'ConfirmRisky' },
      { kind: 'ConfirmRisky', threshold: 'LOW', confirm_unknown: false },
      { kind: 'ConfirmRisky', threshold: null, confirm_unknown: null },
      { kind: 'ConfirmRisky', threshold: 'true' },
      { kind: 'ConfirmRisky', confirm_unknown: 'false' },
      { kind: 'ConfirmRisky', threshold: 'UNKNOWN' },
      { kind: 'AlwaysConfirm', extra: 1 },
    ];
    for (let round = 0; round < 2; round++) {
      for (const input of inputs) {
        const schema = confirmationPolicySchema.safeParse(input);
        if (!schema.success) {
          expect(() => parseConfirmationPolicy(input)).toThrow(InvalidConfirmationPolicyError);
          continue;
        }
        const parsed = parseConfirmationPolicy(input);
        expect(parsed).toStrictEqual(schema.data);
        (parsed as { kind: string }).kind = 'changed by a caller';
      }
    }
  });
});
