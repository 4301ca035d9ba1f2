import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { connectPostgres } from '../src/database.js';
import { pickPostgresPort, startPostgresServer } from '../src/testing/postgres-server.js';

// The test server's port: chosen below the kernel's ephemeral range (so no listen(0) or outgoing connection is
// handed it between the choice and the bind, or while the server is down for a restart), another one tried when
// PostgreSQL finds it taken, and the same one again after restart().

async function occupy(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  const port = pickPostgresPort();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { server, port };
}

describe('the PostgreSQL test server’s port', () => {
  it('is picked below the ephemeral range', () => {
    for (let round = 0; round < 200; round++) {
      const port = pickPostgresPort('32768\t60999\n');
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(32_768);
    }
    for (let round = 0; round < 50; round++) {
      const fallback = pickPostgresPort('');
      expect(fallback).toBeGreaterThanOrEqual(20_000);
      expect(fallback).toBeLessThan(30_000);
    }
  });

  it('moves to another port when the one picked is taken, and keeps it across restart()', async () => {
    const taken = await occupy();
    const tried: number[] = [];
    const server = await startPostgresServer({
      pickPort: () => {
        const port = tried.length === 0 ? taken.port : pickPostgresPort();
        tried.push(port);
        return port;
      },
    });
    try {
      expect(tried[0]).toBe(taken.port);
      expect(server.port).toBe(tried.at(-1));
      expect(server.port).not.toBe(taken.port);
      expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
      const { url, port } = server;
      await server.restart();
      expect({ url: server.url, port: server.port }).toEqual({ url, port });
      const database = await connectPostgres({ url: server.url, maxConnections: 1 });
      try {
        expect(await database.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
      } finally {
        await database.close();
      }
    } finally {
      await server.stop();
      await new Promise((resolve) => taken.server.close(resolve));
    }
  });
});
