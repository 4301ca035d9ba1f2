import type { TestProject } from 'vitest/node';
import { type PostgresServer, startPostgresServer } from '../src/testing/postgres-server.js';

let server: PostgresServer | undefined;

/**
 * Starts one PostgreSQL server on 127.0.0.1 for the package's tests (or uses X_POSTGRES_URL when
 * set). A missing PostgreSQL fails loudly here, with install instructions: these tests never skip.
 */
export async function setup(project: TestProject): Promise<void> {
  const configured = process.env.X_POSTGRES_URL;
  if (configured !== undefined && configured !== '') {
    project.provide('postgresUrl', configured);
    return;
  }
  server = await startPostgresServer();
  project.provide('postgresUrl', server.url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  server = undefined;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the test PostgreSQL server's `postgres` database (trust auth, loopback). */
    postgresUrl: string;
  }
}
