/**
 * The session API key lives in this tab's sessionStorage only: never in a URL, a cookie or
 * localStorage, so it is gone when the tab closes and is never sent anywhere but the header / auth frame.
 */
const STORAGE_KEY = 'x-viewer-session-key';

export function readSessionKey(): string | undefined {
  try {
    return sessionStorage.getItem(STORAGE_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

export function storeSessionKey(key: string): void {
  sessionStorage.setItem(STORAGE_KEY, key);
}
