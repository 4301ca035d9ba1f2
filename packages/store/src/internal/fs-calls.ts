import {
  close as closeWithCallback,
  fdatasync as fdatasyncWithCallback,
  fstat as fstatWithCallback,
  fsync as fsyncWithCallback,
  open as openWithCallback,
  read as readWithCallback,
  type Stats,
} from 'node:fs';

/**
 * Promise forms of the callback `fs` calls on raw descriptors. The store works on descriptors
 * (directories opened one component at a time), and the callback API costs markedly less per call
 * than `fs/promises` FileHandles on the small files of an event log.
 */
export function openFd(path: string, flags: number, mode?: number): Promise<number> {
  return new Promise((resolve, reject) => {
    openWithCallback(path, flags, mode, (error, fd) => (error ? reject(error) : resolve(fd)));
  });
}

export function closeFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    closeWithCallback(fd, (error) => (error ? reject(error) : resolve()));
  });
}

export function fstatFd(fd: number): Promise<Stats> {
  return new Promise((resolve, reject) => {
    fstatWithCallback(fd, (error, stats) => (error ? reject(error) : resolve(stats)));
  });
}

export function fsyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fsyncWithCallback(fd, (error) => (error ? reject(error) : resolve()));
  });
}

export function readFd(fd: number, buffer: Uint8Array, offset: number): Promise<number> {
  return new Promise((resolve, reject) => {
    readWithCallback(fd, buffer, offset, buffer.length - offset, null, (error, bytesRead) =>
      error ? reject(error) : resolve(bytesRead),
    );
  });
}

export function fdatasyncFd(fd: number): Promise<void> {
  return new Promise((resolve, reject) => {
    fdatasyncWithCallback(fd, (error) => (error ? reject(error) : resolve()));
  });
}

/** Reads into all of `buffer` from `position` in the file (fewer bytes at its end); how many were read. */
export function preadFd(fd: number, buffer: Uint8Array, position: number): Promise<number> {
  return new Promise((resolve, reject) => {
    readWithCallback(fd, buffer, 0, buffer.length, position, (error, bytesRead) =>
      error ? reject(error) : resolve(bytesRead),
    );
  });
}
