import type { Arguments } from './parse-arguments.js';
import { pythonRepr, pythonStr } from './python-repr.js';
import { shellJoin } from './shell-quote.js';

/** Names models use for the built-in tools (legacy OpenHands and Anthropic-style names). */
export const toolNameAliases: Readonly<Record<string, string>> = {
  bash: 'terminal',
  command: 'terminal',
  execute: 'terminal',
  execute_bash: 'terminal',
  git: 'terminal',
  reset: 'terminal',
  str_replace: 'file_editor',
  str_replace_editor: 'file_editor',
};

/** Aliases that are commands themselves: `git(command="status")` runs `git status`. */
const commandPrefixAliases = new Set(['git', 'reset']);
/** Bare shell commands accepted as tool names when called without arguments. */
const bareShellCommands = new Set(['find', 'git', 'ls', 'pwd']);
const leadingIdentifier = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const fileEditorHints = ['old_str', 'new_str', 'insert_line', 'file_text', 'path', 'view_range'];

export type NormalizeResult = { ok: true; name: string; arguments: Arguments } | { ok: false; message: string };

/** Keeps only the meta fields and sets `command` (for calls rewritten into terminal commands). */
function terminalArguments(arguments_: Arguments, command: string): Arguments {
  const kept: Arguments = {};
  for (const key of ['security_risk', 'summary']) if (key in arguments_) kept[key] = arguments_[key];
  kept.command = command;
  return kept;
}

/**
 * A structured `grep` call becomes a grep command. The reference prefers `rg` when it is installed; we always
 * emit POSIX `grep` so the result does not depend on the machine parsing the call.
 */
function grepCommand(arguments_: Arguments): string | undefined {
  const { pattern, path, include } = arguments_;
  if (typeof pattern !== 'string' || pattern.trim() === '') return undefined;
  const searchPath = typeof path === 'string' && path.trim() !== '' ? path : '.';
  const words = ['grep', '-R', '-I', '-n', '-i', pattern, searchPath];
  if (typeof include === 'string' && include.trim() !== '') words.push(`--include=${include}`);
  return shellJoin(words);
}

function inferFileEditorCommand(arguments_: Arguments): string | undefined {
  if ('command' in arguments_) return undefined;
  if ('old_str' in arguments_) return 'str_replace';
  if ('insert_line' in arguments_) return 'insert';
  if ('file_text' in arguments_) return 'create';
  if ('path' in arguments_) return 'view';
  return undefined;
}

/** §9.2 step 2: map unregistered names to registered tools and infer file_editor's `command`. */
export function normalizeToolCall(
  requestedName: string,
  arguments_: Arguments,
  available: ReadonlySet<string>,
): NormalizeResult {
  let name = requestedName;
  let args = { ...arguments_ };

  // A registered tool is never renamed, even when its name is also an alias.
  if (!available.has(requestedName)) {
    const baseName = leadingIdentifier.exec(requestedName)?.[0] ?? requestedName;
    const aliasTarget = Object.hasOwn(toolNameAliases, baseName) ? toolNameAliases[baseName] : undefined;
    if (baseName !== requestedName && available.has(baseName)) {
      name = baseName;
    } else if (aliasTarget !== undefined && available.has(aliasTarget)) {
      name = aliasTarget;
      if (aliasTarget === 'terminal' && commandPrefixAliases.has(baseName)) {
        const original = arguments_.command;
        let command: string;
        if (isFalsy(original)) command = baseName;
        else if (pythonStr(original).trim().split(/\s+/)[0] === baseName) command = pythonStr(original);
        else command = `${baseName} ${pythonStr(original)}`;
        args = terminalArguments(arguments_, command);
      }
    } else if (available.has('terminal')) {
      const command =
        requestedName === 'grep'
          ? grepCommand(args)
          : Object.keys(args).length === 0 && bareShellCommands.has(requestedName)
            ? requestedName
            : undefined;
      if (command !== undefined) {
        name = 'terminal';
        args = terminalArguments(args, command);
      }
    }
  }

  if (name === 'file_editor') {
    const inferred = inferFileEditorCommand(args);
    if (inferred !== undefined) {
      args = { command: inferred, ...args };
    } else if (!('command' in args) && !fileEditorHints.some((hint) => hint in args)) {
      return {
        ok: false,
        message:
          `Cannot infer 'command' for tool '${name}' from empty arguments ${pythonRepr(args)}. ` +
          'Expected one of: str_replace, insert, create, view with appropriate arguments ' +
          '(e.g., old_str for str_replace, path for view).',
      };
    }
  }
  return { ok: true, name, arguments: args };
}

/** Python truthiness of a JSON value. */
function isFalsy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}
