import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirWatch } from './data-dir-watch.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('DataDirWatch', () => {
  it('hears a forming conversation whose first file came between the look and the watch', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'x-data-dir-watch-'));
    dirs.push(dataDir);
    mkdirSync(join(dataDir, '0123456789abcdef0123456789abcdef'));
    // The first look finds the directory without its file; by any later look the file is there. No file system
    // event follows (nothing is written): only a look after the directory's watch began can see it.
    let looks = 0;
    let changes = 0;
    const watcher = new DataDirWatch({
      dataDir,
      isConversation: () => looks++ > 0,
      onChange: () => {
        changes += 1;
      },
      warn: (message) => {
        throw new Error(message);
      },
    });
    try {
      for (let i = 0; i < 3 && changes === 0; i++) await turn();
      expect(changes).toBe(1);
    } finally {
      watcher.stop();
    }
  });
});
