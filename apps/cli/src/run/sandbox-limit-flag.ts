import type { SandboxLimitName } from '@x/agent';
import { InvalidArgumentError } from 'commander';

/** How a limit is written on the command line, and what its figure counts. */
interface LimitFlag {
  name: SandboxLimitName;
  unit: 'bytes' | 'milliseconds' | 'seconds' | 'count';
}

/** `--sandbox-limit NAME=VALUE`: NAME as the CLI spells it (also the policy's own name), and what it sets. */
const LIMIT_FLAGS: Readonly<Record<string, LimitFlag>> = {
  memory: { name: 'memoryBytes', unit: 'bytes' },
  processes: { name: 'processes', unit: 'count' },
  'file-size': { name: 'fileSizeBytes', unit: 'bytes' },
  'cpu-time': { name: 'cpuTimeSeconds', unit: 'seconds' },
  'wall-time': { name: 'wallTimeMs', unit: 'milliseconds' },
  output: { name: 'outputBytes', unit: 'bytes' },
};

const BY_POLICY_NAME = new Map(Object.values(LIMIT_FLAGS).map((flag) => [flag.name.toLowerCase(), flag]));

/** Binary multiples (a `512M` of memory is 512 MiB, as `ulimit` and container runtimes read it). */
const SIZE_UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };
const TIME_UNITS_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

const EXPECTED = {
  bytes: 'a number of bytes with an optional unit K, M, G or T (binary: 512M is 512 MiB)',
  milliseconds: 'a duration: milliseconds, or a number with a unit ms, s, m or h (30s)',
  seconds: 'a duration: seconds, or a number with a unit s, m or h (90s, 5m)',
  count: 'a whole number',
} as const;

function figure(flag: LimitFlag, value: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*([a-z]*)$/i.exec(value.trim());
  if (match === null) return undefined;
  const amount = Number(match[1]);
  const unit = (match[2] ?? '').toLowerCase();
  let multiple: number | undefined;
  if (flag.unit === 'bytes') {
    // `512M`, `512MB`, `512MiB`, `100b`: all binary.
    const size = /^(?:([kmgt])(?:i?b)?|b?)$/.exec(unit);
    multiple = size === null ? undefined : SIZE_UNITS[size[1] ?? ''];
  } else if (flag.unit === 'count') multiple = unit === '' ? 1 : undefined;
  else if (unit === '') multiple = 1;
  else {
    const ms = TIME_UNITS_MS[unit];
    multiple = ms === undefined ? undefined : flag.unit === 'seconds' ? (ms >= 1000 ? ms / 1000 : undefined) : ms;
  }
  if (multiple === undefined) return undefined;
  const result = amount * multiple;
  return Number.isSafeInteger(result) && result >= 1 ? result : undefined;
}

/**
 * One `--sandbox-limit NAME=VALUE` (repeatable; a later one for the same limit wins), collected into the policy's
 * `limits`. Refuses, naming it, a NAME that is no limit and a VALUE that is not one for that limit.
 */
export function collectSandboxLimit(
  value: string,
  previous: Partial<Record<SandboxLimitName, number | 'unlimited'>> = {},
): Partial<Record<SandboxLimitName, number | 'unlimited'>> {
  const equals = value.indexOf('=');
  const known = Object.keys(LIMIT_FLAGS).join(', ');
  if (equals < 0) throw new InvalidArgumentError(`expected NAME=VALUE (NAME one of ${known}), got '${value}'.`);
  const name = value.slice(0, equals).trim();
  const given = value.slice(equals + 1).trim();
  const flag = LIMIT_FLAGS[name.toLowerCase()] ?? BY_POLICY_NAME.get(name.toLowerCase());
  if (flag === undefined) throw new InvalidArgumentError(`'${name}' is not a sandbox limit (one of ${known}).`);
  if (given.toLowerCase() === 'unlimited') return { ...previous, [flag.name]: 'unlimited' };
  const parsed = figure(flag, given);
  if (parsed === undefined)
    throw new InvalidArgumentError(
      `'${given}' is not a value for the ${name} limit: expected ${EXPECTED[flag.unit]} ≥ 1, or unlimited.`,
    );
  return { ...previous, [flag.name]: parsed };
}
