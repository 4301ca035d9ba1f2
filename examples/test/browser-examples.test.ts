// The browser example runs as its own process (the agent server and its page server), and its page in Chromium:
// the React hook streams the conversation and sends the message typed into the page.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startScriptedLLMServer } from '@x/agent/testing';
import { launchChromium } from '@x/browser-testing';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('../dist/react-chat.js', import.meta.url));

/** Polls until the assertion holds: generous, because the machine running the suite may be heavily loaded. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 60_000, interval: 50 });

describe('browser examples', () => {
  it('react-chat: the page shows the conversation live and sends what is typed into it', async () => {
    const llm = await startScriptedLLMServer([{ content: 'Hello from the model.' }]);
    const home = await mkdtemp(join(tmpdir(), 'x-example-react-chat-'));
    const child = spawn(process.execPath, [script], {
      cwd: home,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: home,
        TMPDIR: home,
        X_HOME: join(home, '.x'),
        OPENAI_API_KEY: 'sk-local',
        OPENAI_BASE_URL: llm.baseURL,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const browser = await launchChromium();
    try {
      await eventually(() => /open (http:\/\/127\.0\.0\.1:\d+\/#\S+)/.test(output) || child.exitCode !== null).toBe(
        true,
      );
      const url = /open (http:\/\/127\.0\.0\.1:\d+\/#\S+)/.exec(output)?.[1];
      expect(url, output).toBeDefined();
      const context = await browser.newContext();
      const problems: string[] = [];
      await context.route('**/*', (route) => {
        const target = new URL(route.request().url());
        if (target.hostname === '127.0.0.1') return route.continue();
        problems.push(`blocked request to ${target.href}`);
        return route.abort();
      });
      const page = await context.newPage();
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
      await page.goto(url as string);
      await eventually(() => page.locator('#connection').textContent()).toBe('open');
      // The key left the address bar once read.
      expect(page.url()).not.toContain('key=');

      await page.getByLabel('Message').fill('Say hello.');
      await page.getByRole('button', { name: 'Send' }).click();
      await eventually(() => page.locator('#messages li').allTextContents()).toEqual([
        'user: Say hello.',
        'agent: Hello from the model.',
      ]);
      await eventually(() => page.locator('#status').textContent()).toBe('finished');
      expect(llm.requestHeaders[0]?.authorization).toBe('Bearer sk-local');
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      if (child.exitCode === null) child.kill('SIGINT');
      await exited;
      await llm.close();
      await rm(home, { recursive: true, force: true, maxRetries: 5 });
    }
  });
});
