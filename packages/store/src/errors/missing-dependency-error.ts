import { StoreError } from '../errors.js';

/**
 * A feature was used whose SDK is an optional peer dependency of @x/store that is not installed (the AWS SDK of
 * the S3 store). The message names the package and the command that installs it.
 */
export class MissingDependencyError extends StoreError {
  declare readonly code: 'missing_dependency';
  /** The package to install, e.g. `@aws-sdk/client-s3`. */
  readonly packageName: string;
  /** The version range @x/store supports. */
  readonly versionRange: string;
  /** What needed it, e.g. `The S3 store`. */
  readonly feature: string;
  /** `npm install <package>@<range>`. */
  readonly installCommand: string;

  constructor(options: { packageName: string; versionRange: string; feature: string; cause?: unknown }) {
    const installCommand = `npm install ${options.packageName}@${options.versionRange}`;
    super(
      'missing_dependency',
      `${options.feature} needs '${options.packageName}', an optional peer dependency of @x/store that is not installed: ${installCommand}`,
      { cause: options.cause },
    );
    this.packageName = options.packageName;
    this.versionRange = options.versionRange;
    this.feature = options.feature;
    this.installCommand = installCommand;
  }
}
