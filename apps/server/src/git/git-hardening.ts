/**
 * What keeps git from running a program that a repository names. A repository in the workspace is written by the
 * agent, and its configuration (`.git/config` and what it includes) and attributes can make git execute commands:
 * `core.fsmonitor`, hooks (`core.hooksPath`), `diff.external` and `diff.<driver>.command`, textconv drivers, and
 * `filter.<driver>.clean|smudge|process` named by `.gitattributes`. git runs in the sandbox anyway; these settings
 * make it run none of them even there. Settings given on git's command line (or in `GIT_CONFIG_COUNT`) outrank
 * every configuration file, so a repository cannot undo them.
 */

/** Options before the subcommand: no pager, no optional index writes, and the repository's programs switched off. */
export const HARDENING_OPTIONS: readonly string[] = [
  '--no-pager',
  '--no-optional-locks',
  '-c',
  'core.fsmonitor=false',
  '-c',
  'core.hooksPath=/dev/null',
  '-c',
  'diff.external=',
  '-c',
  'log.showSignature=false',
  '-c',
  'core.pager=cat',
];

/** Options of `git diff` that keep external diff programs and textconv drivers from running. */
export const DIFF_HARDENING_OPTIONS: readonly string[] = [
  '--no-ext-diff',
  '--no-textconv',
  // A dirty submodule would be inspected by a child git in the submodule, whose own filters are not switched off.
  '--ignore-submodules=dirty',
];

/**
 * The environment git runs with: nothing from the server's own environment but `PATH` (no credentials, no
 * `GIT_*` of the host), no system or user configuration, no prompts, no pager, and repository discovery that
 * stops at the workspace root (`ceiling`: the directory holding it).
 */
export function gitEnvironment(options: { path: string; ceiling: string }): Record<string, string> {
  return {
    PATH: options.path,
    LC_ALL: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    PAGER: 'cat',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_CEILING_DIRECTORIES: options.ceiling,
  };
}

/** Configuration keys that name a program git runs on file contents (lower case, as `git config --list` prints). */
const FILTER_KEY = /^filter\.(.+)\.(clean|smudge|process)$/s;

/**
 * Settings that switch off every filter driver a repository's configuration defines, from its
 * `git config --null --list` output: an empty `clean`, `smudge` and `process` make git skip the driver, and
 * `required=false` keeps it from failing for want of one. Given through `GIT_CONFIG_COUNT` (key and value apart),
 * so a driver whose name holds `=` is switched off too.
 */
export function filterOverrides(configList: string): Array<[key: string, value: string]> {
  const drivers = new Set<string>();
  for (const record of configList.split('\0')) {
    const key = record.split('\n', 1)[0] ?? '';
    const match = FILTER_KEY.exec(key);
    if (match?.[1] !== undefined) drivers.add(match[1]);
  }
  return [...drivers].flatMap((driver) => [
    [`filter.${driver}.clean`, ''],
    [`filter.${driver}.smudge`, ''],
    [`filter.${driver}.process`, ''],
    [`filter.${driver}.required`, 'false'],
  ]);
}

/** `GIT_CONFIG_COUNT` / `GIT_CONFIG_KEY_<n>` / `GIT_CONFIG_VALUE_<n>` for the given settings. */
export function configEnvironment(settings: ReadonlyArray<[string, string]>): Record<string, string> {
  const env: Record<string, string> = { GIT_CONFIG_COUNT: String(settings.length) };
  settings.forEach(([key, value], index) => {
    env[`GIT_CONFIG_KEY_${index}`] = key;
    env[`GIT_CONFIG_VALUE_${index}`] = value;
  });
  return env;
}
