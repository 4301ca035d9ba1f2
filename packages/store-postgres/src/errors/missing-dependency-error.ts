import { PostgresStoreError } from '../errors.js';

/**
 * The PostgreSQL driver (`pg`, an optional peer dependency of @x/store-postgres) is not installed. The message
 * names it and the command that installs it.
 */
export class MissingDependencyError extends PostgresStoreError {
  declare readonly code: 'missing_dependency';
  /** The package to install: `pg`. */
  readonly packageName: string;
  /** The version range @x/store-postgres supports. */
  readonly versionRange: string;
  /** What needed it, e.g. `connectPostgres`. */
  readonly feature: string;
  /** `npm install <package>@<range>`. */
  readonly installCommand: string;

  constructor(options: { packageName: string; versionRange: string; feature: string; cause?: unknown }) {
    const installCommand = `npm install ${options.packageName}@${options.versionRange}`;
    super(
      'missing_dependency',
      `${options.feature} needs '${options.packageName}', an optional peer dependency of @x/store-postgres that is not installed: ${installCommand}`,
      { cause: options.cause },
    );
    this.packageName = options.packageName;
    this.versionRange = options.versionRange;
    this.feature = options.feature;
    this.installCommand = installCommand;
  }
}
