import { setOwnEntry } from '../../internal/own-entries.js';

/**
 * Variables that act on a program as it starts, before it runs a line of its own: what the dynamic loader
 * reads (`LD_PRELOAD`, `LD_AUDIT`, `LD_DEBUG_OUTPUT`…), the rest of glibc's list of variables it refuses to a
 * setuid program (`GCONV_PATH`, `GLIBC_TUNABLES`, `MALLOC_*`, `LOCPATH`…), and what a shell reads as it starts
 * (`BASH_ENV`, `ENV`, exported functions `BASH_FUNC_*`, `SHELLOPTS`, `GLOBIGNORE`…). Also the locale and time
 * zone (`LANG`, `LANGUAGE`, `LC_*`, `TZ`): glibc reads locale files from a value holding a `/` and a zone file
 * from `TZ=/path`, so a value a client chose (an MCP server's `env`) would have the host side parse files it
 * picked; the wrapper and bubblewrap run in the C locale, and the command gets them as given.
 *
 * The sandbox's wrapper shell and bubblewrap itself run on the host, outside every namespace, with the
 * command's environment: one of these there would load a library of the command's choosing into them (code
 * run with the server's authority), or write a file where it says. So they are kept from the host side and
 * handed to the command inside the sandbox by bubblewrap (`--setenv`, applied after the namespaces exist).
 */
const HOST_SIDE_NAMES = new Set([
  'GCONV_PATH',
  'GETCONF_DIR',
  'GLIBC_TUNABLES',
  'HOSTALIASES',
  'LOCALDOMAIN',
  'LOCPATH',
  'NIS_PATH',
  'NLSPATH',
  'RESOLV_HOST_CONF',
  'RES_OPTIONS',
  'TZDIR',
  'ENV',
  'BASHOPTS',
  'SHELLOPTS',
  'GLOBIGNORE',
  'EXECIGNORE',
  'IFS',
  'CDPATH',
  'PS4',
  'LANG',
  'LANGUAGE',
  'TZ',
]);
const HOST_SIDE_PREFIXES = ['LD_', 'MALLOC_', 'BASH_', 'LC_'];

/** Whether `name` acts on a program as it starts (see above), so must not reach the host side of the sandbox. */
export function isStartupVariable(name: string): boolean {
  return HOST_SIDE_NAMES.has(name) || HOST_SIDE_PREFIXES.some((prefix) => name.startsWith(prefix));
}

/**
 * Splits a command's environment: `host` is what the wrapper and bubblewrap are spawned with (it reaches the
 * command too, as bubblewrap passes it on), `inside` what bubblewrap sets only inside the sandbox. Every name is
 * an own key of the result: `__proto__` is a legal variable name, which a plain assignment would drop.
 */
export function splitCommandEnvironment(env: Readonly<Record<string, string>>): {
  host: Record<string, string>;
  inside: Record<string, string>;
} {
  const host: Record<string, string> = {};
  const inside: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    setOwnEntry(isStartupVariable(name) ? inside : host, name, value);
  }
  return { host, inside };
}
