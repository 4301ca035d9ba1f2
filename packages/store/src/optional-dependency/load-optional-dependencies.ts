import { isPackageNotFound } from './is-package-not-found.js';

/** Dynamic `import()`s, each keyed by the package it imports (or imports a subpath of). */
export type OptionalDependencyLoaders = Record<string, () => Promise<unknown>>;

/** What `loaders` resolve to, keyed alike. */
export type LoadedOptionalDependencies<L extends OptionalDependencyLoaders> = {
  [Name in keyof L]: Awaited<ReturnType<L[Name]>>;
};

/**
 * Builds the error thrown when packages are not installed: the caller's own typed error (each package reports a
 * missing dependency with its own `MissingDependencyError`, under its own error base). `cause` is Node's error
 * for the first of them.
 */
export type MissingDependenciesErrorFactory<Name extends string> = (
  packageNames: readonly Name[],
  cause: unknown,
) => Error;

/**
 * Runs every loader and, when some of those packages are not installed, throws one error naming all of them
 * (`onMissing`), so that one install command fixes it. Any other failure (a package there but broken, or
 * missing one of its own dependencies) is thrown unchanged: telling the user to install what they have would
 * mislead.
 */
export async function loadOptionalDependencies<L extends OptionalDependencyLoaders>(
  loaders: L,
  onMissing: MissingDependenciesErrorFactory<keyof L & string>,
): Promise<LoadedOptionalDependencies<L>> {
  const names = Object.keys(loaders) as (keyof L & string)[];
  // Through `then`, so a loader that throws before returning its promise is settled like one that rejects.
  const settled = await Promise.allSettled(names.map((name) => Promise.resolve().then(loaders[name])));
  const missing: (keyof L & string)[] = [];
  let missingCause: unknown;
  let otherFailure: { reason: unknown } | undefined;
  settled.forEach((result, index) => {
    if (result.status === 'fulfilled') return;
    const name = names[index] as keyof L & string;
    if (isPackageNotFound(result.reason, name)) {
      if (missing.length === 0) missingCause = result.reason;
      missing.push(name);
    } else {
      otherFailure ??= { reason: result.reason };
    }
  });
  if (missing.length > 0) throw onMissing(missing, missingCause);
  if (otherFailure !== undefined) throw otherFailure.reason;
  return Object.fromEntries(
    names.map((name, index) => [name, (settled[index] as PromiseFulfilledResult<unknown>).value]),
  ) as LoadedOptionalDependencies<L>;
}

export interface LoadOptionalDependencyOptions<Name extends string, T> {
  /** The package `load` imports (or imports a subpath of). */
  packageName: Name;
  /** The dynamic `import()`. */
  load: () => Promise<T>;
  /** Builds the caller's own typed error when `packageName` is not installed; `cause` is Node's error. */
  onMissing: (cause: unknown) => Error;
}

/** `loadOptionalDependencies` for one package: its module, or the caller's error when it is not installed. */
export async function loadOptionalDependency<Name extends string, T>(
  options: LoadOptionalDependencyOptions<Name, T>,
): Promise<T> {
  const { packageName, load, onMissing } = options;
  const loaded = await loadOptionalDependencies({ [packageName]: load } as Record<Name, () => Promise<T>>, (_, cause) =>
    onMissing(cause),
  );
  return loaded[packageName] as T;
}
