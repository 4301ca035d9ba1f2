import type { TestProject } from 'vitest/node';
import { type MotoServer, startMotoServer } from '../src/testing/moto-server.js';

let server: MotoServer | undefined;

/**
 * Gives the S3 tests an endpoint: `X_S3_ENDPOINT` when set (any S3-compatible server with
 * conditional writes), otherwise a moto server on 127.0.0.1 started here and stopped in teardown.
 * A missing moto fails the S3 tests with install instructions rather than skipping them. The error is handed
 * to those tests (`s3TestEndpoint()` throws it) instead of thrown here: a failing global setup makes vitest
 * report a misleading "No test files found" and run none of the package's other tests.
 */
export async function setup(project: TestProject): Promise<void> {
  const configured = process.env.X_S3_ENDPOINT;
  if (configured !== undefined && configured !== '') {
    project.provide('s3Endpoint', configured);
    return;
  }
  try {
    server = await startMotoServer({ startTimeoutMs: 60_000 });
    project.provide('s3Endpoint', server.endpoint);
  } catch (error) {
    project.provide('s3Endpoint', '');
    project.provide('s3Unavailable', error instanceof Error ? error.message : String(error));
  }
}

export async function teardown(): Promise<void> {
  await server?.stop();
  server = undefined;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** URL of the S3-compatible test server (path-style, any credentials). */
    s3Endpoint: string;
    /** Why no S3 test server could be started (set only when `s3Endpoint` is empty). */
    s3Unavailable?: string;
  }
}
