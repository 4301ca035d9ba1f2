import { isAbsolute, join } from 'node:path';
import { z } from 'zod';
import { type WalkResult, walkWorkspaceFiles } from '../paths/index.js';
import { checkHomeOption, expandHome } from './internal/expand-home.js';
import { createGlobMatcher, type GlobMatcher, hasGlobMagic } from './internal/glob-pattern.js';
import { createIgnoreFilter } from './internal/ignore-files.js';
import { byModifiedDescending, searchDirectory, searchFailureMessage } from './internal/search-directory.js';
import { checkToolOptionLimits } from './internal/tool-option-limits.js';
import { defineTool, type Tool, type ToolResult } from './tool.js';

export interface GlobToolOptions {
  /** At most this many files are returned (newest first); the reference's limit is 100. */
  maxResults?: number;
  /** The walk stops after this many directory entries (the result is then marked truncated). Default 200000. */
  maxEntries?: number;
  /** The directory a leading `~` stands for (see `expandHome`). Default: this process's home directory. */
  home?: string;
}

export const globParameters = z.object({
  pattern: z.string().describe('The glob pattern to match files (e.g., "**/*.js", "src/**/*.ts")'),
  path: z
    .string()
    .nullish()
    .describe('The directory (absolute path) to search in. Defaults to the current working directory.'),
});

export type GlobAction = z.output<typeof globParameters>;

/** The reference's `TOOL_DESCRIPTION` of the glob tool, and where x looks. */
export const GLOB_TOOL_DESCRIPTION = `Fast file pattern matching tool.
* Supports glob patterns like "**/*.js" or "src/**/*.ts"
* Use this tool when you need to find files by name patterns
* Returns matching file paths sorted by modification time
* Only the first 100 results are returned. Consider narrowing your search with stricter glob patterns or provide path parameter if you need more results.

Examples:
- Find all JavaScript files: "**/*.js"
- Find TypeScript files in src: "src/**/*.ts"
- Find Python test files: "**/test_*.py"
- Find configuration files: "**/*.{json,yaml,yml,toml}"


When searching for files, patterns are relative to the workspace directory. Paths outside the workspace are refused.`;

/**
 * The reference's split of an absolute pattern (`/ws/src/**\/*.ts`) into the directory to search (`/ws/src`) and
 * the pattern below it (`**\/*.ts`); a relative pattern is left as it is.
 */
export function splitGlobPattern(pattern: string): { directory: string | undefined; pattern: string } {
  if (pattern === '') return { directory: undefined, pattern: '**/*' };
  if (!isAbsolute(pattern)) return { directory: undefined, pattern };
  const parts = pattern.split('/').filter((part) => part !== '');
  const fixed: string[] = [];
  for (const part of parts) {
    if (hasGlobMagic(part)) break;
    fixed.push(part);
  }
  const rest = parts.slice(fixed.length);
  return { directory: `/${fixed.join('/')}`, pattern: rest.length === 0 ? '**/*' : rest.join('/') };
}

/**
 * `glob` (the reference's GlobTool): files of the workspace whose path matches a glob pattern, newest first,
 * at most 100. Searched in-process through the confined file layer: the search directory must lie inside the
 * workspace, symlinks are never followed, hidden entries are skipped and ignore files are read (as ripgrep does).
 */
export function createGlobTool(options: GlobToolOptions = {}): Tool<GlobAction> {
  checkToolOptionLimits('glob', options, { maxResults: 'count', maxEntries: 'count' });
  checkHomeOption('glob', options.home);
  const maxResults = options.maxResults ?? 100;
  const maxEntries = options.maxEntries ?? 200_000;
  return defineTool({
    name: 'glob',
    toolKind: 'GlobTool',
    description: GLOB_TOOL_DESCRIPTION,
    parameters: globParameters,
    annotations: {
      title: 'glob',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    async execute(action, context): Promise<ToolResult> {
      // As the reference, `~` in the pattern when no path is given; and in the path too, which it takes literally
      // (a directory named `~` in the working directory, which no model means). Either is then confined.
      const split = action.path
        ? { directory: expandHome(action.path, options.home), pattern: action.pattern }
        : splitGlobPattern(expandHome(action.pattern, options.home));
      const resolved = await searchDirectory(context.workspace, split.directory);
      const failure = (searchPath: string, message: string): ToolResult => ({
        content: message,
        is_error: true,
        files: [],
        pattern: action.pattern,
        search_path: searchPath,
        truncated: false,
      });
      if (!resolved.ok) return failure(resolved.shown, resolved.message);
      const { directory } = resolved;
      let matcher: GlobMatcher;
      try {
        matcher = createGlobMatcher(split.pattern);
      } catch (error) {
        return failure(directory.path, `Invalid glob pattern '${action.pattern}': ${(error as Error).message}`);
      }
      const found: { path: string; mtimeMs: number }[] = [];
      let walk: WalkResult;
      try {
        walk = await walkWorkspaceFiles(directory, {
          maxEntries,
          ignore: await createIgnoreFilter(directory.real),
          visit(file) {
            if (matcher.matches(file.relative))
              found.push({ path: join(directory.path, file.relative), mtimeMs: file.mtimeMs });
            return true;
          },
        });
      } catch (error) {
        const message = searchFailureMessage(error);
        if (message === undefined) throw error;
        return failure(directory.path, message);
      }
      found.sort(byModifiedDescending);
      const files = found.slice(0, maxResults).map((file) => file.path);
      const truncated = found.length > maxResults || walk.incomplete;
      let content: string;
      if (files.length === 0) {
        content = `No files found matching pattern '${action.pattern}' in directory '${directory.path}'`;
      } else {
        content = `Found ${files.length} file(s) matching pattern '${action.pattern}' in '${directory.path}':\n${files.join('\n')}`;
        if (found.length > maxResults) {
          content += `\n\n[Results truncated to first ${maxResults} files. Consider using a more specific pattern.]`;
        }
      }
      if (walk.incomplete) {
        content += `\n\n[The search stopped after ${maxEntries} entries. Consider giving a narrower path.]`;
      }
      return { content, files, pattern: action.pattern, search_path: directory.path, truncated };
    },
  });
}

/** A glob tool with the default limits. */
export const globTool: Tool<GlobAction> = createGlobTool();
