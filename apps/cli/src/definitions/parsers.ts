import { InvalidArgumentError } from 'commander';

/** An event index: a whole number ≥ 0. */
export function parseIndex(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected an event index (0, 1, 2, …), got '${value}'.`);
  return Number(value);
}

export function parsePositiveInteger(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`expected a whole number ≥ 1, got '${value}'.`);
  return Number(value);
}

/** Seconds above 0 (`300`, `0.5`): a time limit. */
export function parsePositiveSeconds(value: string): number {
  const trimmed = value.trim();
  const seconds = Number(trimmed);
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(trimmed) || !Number.isFinite(seconds) || seconds <= 0) {
    throw new InvalidArgumentError(`expected a number of seconds above 0 such as 300 or 0.5, got '${value}'.`);
  }
  return seconds;
}

/** Dollars ≥ 0 (`0.50`, `$2`): a money budget. */
export function parseDollars(value: string): number {
  const trimmed = value.trim().replace(/^\$/, '');
  if (!/^(\d+(\.\d*)?|\.\d+)$/.test(trimmed)) {
    throw new InvalidArgumentError(`expected a number of dollars ≥ 0 such as 0.50, got '${value}'.`);
  }
  return Number(trimmed);
}

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535)
    throw new InvalidArgumentError(`expected a port number (0–65535), got '${value}'.`);
  return port;
}

export function parseUrl(value: string): string {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('not http');
    return value.replace(/\/+$/, '');
  } catch {
    throw new InvalidArgumentError(`expected an http(s) URL such as http://127.0.0.1:8000, got '${value}'.`);
  }
}

/** For repeatable options: `--kind a --kind b` → ['a', 'b']. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').filter((part) => part !== '')];
}

/** `--env NAME` or `--env NAME=VALUE`, repeatable: collected in order. */
export function collectEnv(value: string, previous: string[] = []): string[] {
  if (!/^[A-Za-z_][A-Za-z0-9_]*(=.*)?$/s.test(value)) {
    throw new InvalidArgumentError(`expected NAME or NAME=VALUE (a variable name), got '${value}'.`);
  }
  return [...previous, value];
}
