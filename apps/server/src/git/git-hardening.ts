/**
 * What keeps git from running a program that a repository names. A repository in the workspace is written by the
 * agent, and its configuration (`.git/config` and what it includes) and attributes can make git execute commands:
 * `core.fsmonitor`, hooks (`core.hooksPath`), `diff.external` and `diff.<driver>.command`, textconv drivers, and
 * `filter.<driver>.clean|smudge|process` named by `.gitattributes`. git runs in the sandbox anyway; these settings
 * make it run none of them even there. Settings given on git's command line outrank every configuration file, so a
 * repository cannot undo them. The repository's configuration itself is never read by the commands of a route: they
 * read a snapshot that keeps none of these (git-directory-snapshot.ts), so a filter driver, whatever its name, has
 * no program, and one the agent adds while a route runs is not seen.
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
