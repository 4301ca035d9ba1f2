import { createHash, timingSafeEqual } from 'node:crypto';

/** Whether `presented` is one of `keys`, compared in constant time (on digests, so lengths leak nothing). */
export function isValidSessionKey(keys: readonly string[], presented: unknown): boolean {
  if (typeof presented !== 'string') return false;
  const digest = createHash('sha256').update(presented).digest();
  let valid = false;
  for (const key of keys) {
    if (timingSafeEqual(digest, createHash('sha256').update(key).digest())) valid = true;
  }
  return valid;
}
