/**
 * The optional peer dependencies of @x/store (besides vitest, which only `./testing` uses) and the ranges it
 * supports. A test keeps this list equal to `peerDependencies` in package.json.
 */
export const optionalDependencies = {
  '@aws-sdk/client-s3': '^3.1000.0',
} as const;

export type OptionalDependency = keyof typeof optionalDependencies;
