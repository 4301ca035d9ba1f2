import { AgentError } from '../errors.js';

/**
 * A feature was used whose SDK is an optional peer dependency of @x/agent that is not installed (a provider's
 * SDK, the MCP SDK). The message names the package and the command that installs it.
 */
export class MissingDependencyError extends AgentError {
  declare readonly code: 'missing_dependency';
  /** The package to install, e.g. `@anthropic-ai/sdk`. */
  readonly packageName: string;
  /** The version range @x/agent supports, e.g. `^1.12.0`. */
  readonly versionRange: string;
  /** What needed it, e.g. `the anthropic provider`. */
  readonly feature: string;
  /** `npm install <package>@<range>`, the spec quoted when the range has spaces or `||` (a shell would split it). */
  readonly installCommand: string;

  constructor(options: { packageName: string; versionRange: string; feature: string; cause?: unknown }) {
    const spec = `${options.packageName}@${options.versionRange}`;
    const installCommand = `npm install ${/^[\w@/.^~*-]+$/.test(spec) ? spec : `'${spec}'`}`;
    super(
      'missing_dependency',
      `${options.feature} needs '${options.packageName}', an optional peer dependency of @x/agent that is not installed: ${installCommand}`,
      { cause: options.cause },
    );
    this.packageName = options.packageName;
    this.versionRange = options.versionRange;
    this.feature = options.feature;
    this.installCommand = installCommand;
  }
}
