import { ServerError } from '../errors.js';

/**
 * A feature was used whose packages are optional peer dependencies of @x/server that are not installed (the
 * OpenTelemetry SDK and OTLP exporters). The message names every missing package and one command installing them.
 */
export class MissingDependencyError extends ServerError {
  declare readonly code: 'missing_dependency';
  /** The packages to install, e.g. `['@opentelemetry/sdk-trace-base']`. */
  readonly packageNames: readonly string[];
  /** What needed them, e.g. `OTLP trace export`. */
  readonly feature: string;
  /** `npm install <package>@<range> ...`. */
  readonly installCommand: string;

  constructor(options: { packages: Readonly<Record<string, string>>; feature: string; cause?: unknown }) {
    const packageNames = Object.keys(options.packages);
    const installCommand = `npm install ${Object.entries(options.packages)
      .map(([name, range]) => `${name}@${range}`)
      .join(' ')}`;
    const named = packageNames.map((name) => `'${name}'`).join(', ');
    const which =
      packageNames.length === 1
        ? 'an optional peer dependency of @x/server that is not installed'
        : 'optional peer dependencies of @x/server that are not installed';
    super('missing_dependency', `${options.feature} needs ${named}, ${which}: ${installCommand}`, {
      cause: options.cause,
    });
    this.packageNames = Object.freeze(packageNames);
    this.feature = options.feature;
    this.installCommand = installCommand;
  }
}
