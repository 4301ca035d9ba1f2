import { join } from 'node:path';
import { z } from 'zod';
import { readRegularFile, walkWorkspaceFiles } from '../paths/index.js';
import { checkHomeOption, expandHome } from './internal/expand-home.js';
import { createGlobMatcher, type GlobMatcher } from './internal/glob-pattern.js';
import { createIgnoreFilter } from './internal/ignore-files.js';
import { compileSearchPattern, createRegexRunner, RegexTimeoutError } from './internal/regex-runner.js';
import { byModifiedDescending, searchDirectory, searchFailureMessage } from './internal/search-directory.js';
import { checkToolOptionLimits } from './internal/tool-option-limits.js';
import { defineTool, type Tool, type ToolResult } from './tool.js';

export interface GrepToolOptions {
  /** At most this many files are returned (newest first); the reference's limit is 100. */
  maxResults?: number;
  /** The walk stops after this many directory entries (the result is then marked truncated). Default 200000. */
  maxEntries?: number;
  /** Files longer than this are not searched. Default 10 MiB. */
  maxFileBytes?: number;
  /** The whole search gives up after this many seconds (the reference's ripgrep timeout). Default 30. */
  timeoutSeconds?: number;
  /** Milliseconds since some origin, for the time limit (tests inject one). Default `performance.now`. */
  now?: () => number;
  /** The directory a leading `~` of `path` stands for (see `expandHome`). Default: this process's home directory. */
  home?: string;
}

export const grepParameters = z.object({
  pattern: z.string().describe('The regex pattern to search for in file contents'),
  path: z
    .string()
    .nullish()
    .describe('The directory (absolute path) to search in. Defaults to the current working directory.'),
  include: z
    .string()
    .nullish()
    .describe('Optional file pattern to filter which files to search (e.g., "*.js", "*.{ts,tsx}")'),
});

export type GrepAction = z.output<typeof grepParameters>;

/** The reference's `TOOL_DESCRIPTION` of the grep tool, and where x looks. */
export const GREP_TOOL_DESCRIPTION = `Fast content search tool.
* Searches file contents using regular expressions
* Supports full regex syntax (eg. "log.*Error", "function\\s+\\w+", etc.)
* Filter files by pattern with the include parameter (eg. "*.js", "*.{ts,tsx}")
* Returns matching file paths sorted by modification time.
* Only the first 100 results are returned. Consider narrowing your search with stricter regex patterns or provide path parameter if you need more results.
* Use this tool when you need to find files containing specific patterns.


When searching for content, searches are performed in the workspace directory. Paths outside the workspace are refused.`;

/** A file with a NUL byte in its first 8000 bytes is binary and not searched (as `grep -I` decides). */
function isBinary(text: string): boolean {
  return text.slice(0, 8000).includes('\0');
}

/**
 * `grep` (the reference's GrepTool): the files of the workspace whose content matches a regular expression
 * (case-insensitive, `^`/`$` at line ends as ripgrep), newest first, at most 100. Searched in-process through the
 * confined file layer: the directory must lie inside the workspace, symlinks are never followed, hidden entries,
 * binary files, files with several hard links and files over `maxFileBytes` are skipped, and a pattern that
 * backtracks without end is stopped at the time limit.
 */
export function createGrepTool(options: GrepToolOptions = {}): Tool<GrepAction> {
  checkToolOptionLimits('grep', options, {
    maxResults: 'count',
    maxEntries: 'count',
    maxFileBytes: 'count',
    timeoutSeconds: 'duration',
  });
  checkHomeOption('grep', options.home);
  const maxResults = options.maxResults ?? 100;
  const maxEntries = options.maxEntries ?? 200_000;
  const maxFileBytes = options.maxFileBytes ?? 10 * 1024 * 1024;
  const timeoutMs = (options.timeoutSeconds ?? 30) * 1000;
  const now = options.now ?? (() => performance.now());
  return defineTool({
    name: 'grep',
    toolKind: 'GrepTool',
    description: GREP_TOOL_DESCRIPTION,
    parameters: grepParameters,
    annotations: {
      title: 'grep',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    async execute(action, context): Promise<ToolResult> {
      const include = action.include ?? null;
      // `~` in the path as the glob tool's (the reference takes it literally), then confined to the workspace.
      const path = action.path ? expandHome(action.path, options.home) : action.path;
      const resolved = await searchDirectory(context.workspace, path);
      const failure = (searchPath: string, message: string): ToolResult => ({
        content: message,
        is_error: true,
        matches: [],
        pattern: action.pattern,
        search_path: searchPath,
        ...(include === null ? {} : { include_pattern: include }),
        truncated: false,
      });
      if (!resolved.ok) return failure(resolved.shown, resolved.message);
      const { directory } = resolved;
      let regex: RegExp;
      let filter: GlobMatcher | undefined;
      try {
        regex = compileSearchPattern(action.pattern);
      } catch (error) {
        return failure(directory.path, `Invalid regex pattern: ${(error as Error).message}`);
      }
      try {
        filter = include ? createGlobMatcher(include) : undefined;
      } catch (error) {
        return failure(directory.path, `Invalid include pattern '${include}': ${(error as Error).message}`);
      }
      const started = now();
      const runner = createRegexRunner(regex, () => timeoutMs - (now() - started));
      const found: { path: string; mtimeMs: number }[] = [];
      let walk: { incomplete: boolean };
      try {
        walk = await walkWorkspaceFiles(directory, {
          maxEntries,
          ignore: await createIgnoreFilter(directory.real),
          async visit(file) {
            if (filter !== undefined && !filter.matches(file.relative)) return true;
            let text: string;
            try {
              text = await readRegularFile(file.directory, file.name, { shown: file.relative, maxBytes: maxFileBytes });
            } catch (error) {
              // Too large, a second hard link, swapped for something else, unreadable: not searched (as ripgrep
              // goes on past a file it cannot read).
              if (searchFailureMessage(error) !== undefined) return true;
              throw error;
            }
            if (!isBinary(text) && runner.test(text)) {
              found.push({ path: join(directory.path, file.relative), mtimeMs: file.mtimeMs });
            }
            return true;
          },
        });
      } catch (error) {
        const message = searchFailureMessage(error);
        if (message !== undefined) return failure(directory.path, message);
        if (!(error instanceof RegexTimeoutError)) throw error;
        return failure(
          directory.path,
          `The search for '${action.pattern}' took longer than ${timeoutMs / 1000} seconds and was stopped. Use a simpler pattern or a narrower path.`,
        );
      }
      found.sort(byModifiedDescending);
      const matches = found.slice(0, maxResults).map((file) => file.path);
      const truncated = found.length > maxResults || walk.incomplete;
      const filtered = include ? ` (filtered by '${include}')` : '';
      let content: string;
      if (matches.length === 0) {
        content = `No files found containing pattern '${action.pattern}' in directory '${directory.path}'${filtered}`;
      } else {
        content = `Found ${matches.length} file(s) containing pattern '${action.pattern}' in '${directory.path}'${filtered}:\n${matches.join('\n')}`;
        if (found.length > maxResults) {
          content += `\n\n[Results truncated to first ${maxResults} files. Consider using a more specific pattern.]`;
        }
      }
      if (walk.incomplete) {
        content += `\n\n[The search stopped after ${maxEntries} entries. Consider giving a narrower path.]`;
      }
      return {
        content,
        matches,
        pattern: action.pattern,
        search_path: directory.path,
        // The reference leaves a null out.
        ...(include === null ? {} : { include_pattern: include }),
        truncated,
      };
    },
  });
}

/** A grep tool with the default limits. */
export const grepTool: Tool<GrepAction> = createGrepTool();
