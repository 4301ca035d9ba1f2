/**
 * The optional peer dependencies of @x/store-postgres and the ranges it supports. The driver is optional so that
 * a package depending on this one (the server) installs it only where PostgreSQL is used. A test keeps this list
 * equal to `peerDependencies` in package.json.
 */
export const optionalDependencies = {
  pg: '^8.23.0',
} as const;

export type OptionalDependency = keyof typeof optionalDependencies;
