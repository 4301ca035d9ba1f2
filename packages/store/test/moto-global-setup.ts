import type { TestProject } from 'vitest/node';
import { type MotoServer, startMotoServer } from '../src/testing/moto-server.js';

let server: MotoServer | undefined;

/**
 * Gives the S3 tests an endpoint: `X_S3_ENDPOINT` when set (any S3-compatible server with
 * conditional writes), otherwise a moto server on 127.0.0.1 started here and stopped in teardown.
 * A missing moto fails the run with install instructions rather than skipping the S3 tests.
 */
export async function setup(project: TestProject): Promise<void> {
  const configured = process.env.X_S3_ENDPOINT;
  if (configured !== undefined && configured !== '') {
    project.provide('s3Endpoint', configured);
    return;
  }
  server = await startMotoServer();
  project.provide('s3Endpoint', server.endpoint);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  server = undefined;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the S3-compatible test server (path-style, any credentials). */
    s3Endpoint: string;
  }
}
