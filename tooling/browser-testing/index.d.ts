import type { Browser, Page } from 'playwright-core';

export declare const CHROMIUM: string;
export declare const X_BIN: string;

export declare function bundleForBrowser(
  options:
    | { entry: string; alias?: Record<string, string> }
    | { contents: string; resolveDir: string; entry?: undefined; alias?: Record<string, string> },
): Promise<{ code: string; inputs: string[] }>;

export declare function launchChromium(): Promise<Browser>;

export interface SocketGate {
  /** Event sockets the page opened through the gate (refused attempts not counted). */
  readonly connections: number;
  dropAndHold(): Promise<void>;
  release(): void;
}

export declare function openTestPage(
  browser: Browser,
  options: { origin: string; path?: string; html: string; script: string },
): Promise<{ page: Page; problems: string[]; gate: SocketGate; close(): Promise<void> }>;

export interface XServe {
  readonly url: string;
  readonly output: string;
  stop(): Promise<void>;
}

export declare function startXServe(options: { apiKey?: string }): Promise<XServe>;
