import { readFileSync } from 'node:fs';
import { ServerConfigError } from './server-config-error.js';

/** How a configuration field is named when an environment variable set it: `port (X_SERVER_PORT)`. */
export function describeSetting(setting: string, variable: string | undefined): string {
  return variable === undefined ? setting : `${setting} (${variable})`;
}

/**
 * A whole number from an environment variable; undefined when it is unset or empty. Anything else that is not
 * written as a whole number is refused naming the variable: `Number()` alone reads `' '` as 0 (a random port, no
 * idle release) and `'0x10'` as 16.
 */
export function integerFromEnv(setting: string, variable: string, value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d+$/.test(value.trim())) {
    throw new ServerConfigError({
      setting,
      variable,
      message: `${describeSetting(setting, variable)}: ${JSON.stringify(value)} is not a whole number`,
    });
  }
  return Number(value.trim());
}

/**
 * A flag from an environment variable: `1`/`true` or `0`/`false` (any case); undefined when unset or empty.
 * Anything else is refused rather than read as false (`X_SERVER_S3_FORCE_PATH_STYLE=yes` would otherwise address
 * the bucket the other way).
 */
export function flagFromEnv(setting: string, variable: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  const normalized = value.trim().toLowerCase();
  if (normalized === '1' || normalized === 'true') return true;
  if (normalized === '0' || normalized === 'false') return false;
  throw new ServerConfigError({
    setting,
    variable,
    message: `${describeSetting(setting, variable)}: ${JSON.stringify(value)} is neither true (1, true) nor false (0, false)`,
  });
}

/** A comma-separated list from an environment variable, entries trimmed; undefined when unset or blank. */
export function listFromEnv(value: string | undefined): string[] | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
}

/**
 * A configuration value from a JSON file named by an environment variable (validated with the rest of the
 * configuration): `X_SERVER_OPENAI_MODELS` (`{ "<model id>": <StartConversationRequest>, ... }`) and
 * `X_SERVER_MCP_CONVERSATION` (a `StartConversationRequest`). Refused naming the variable and the file when it
 * cannot be read or is not JSON.
 */
export function jsonFileFromEnv(setting: string, variable: string, path: string | undefined): unknown {
  if (path === undefined || path === '') return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ServerConfigError({
      setting,
      variable,
      message: `${variable}: cannot read ${path}: ${(error as Error).message}`,
      cause: error,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new ServerConfigError({
      setting,
      variable,
      message: `${variable}: ${path} is not JSON: ${(error as Error).message}`,
      cause: error,
    });
  }
}
