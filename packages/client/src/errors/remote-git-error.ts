import { ClientError } from '../errors.js';

/**
 * A git route answered 400 or 422: git failed on the repository (a ref or commit it does not know, a configuration
 * it cannot parse), the file of a diff is missing, not a regular file or too large, or the request was refused (a
 * relative path, a ref starting with `-`, a sha that is not hex); or 409 with `serverCode` `git_workspace_gone`: the
 * server's workspace root has been deleted (no repository is left to read until it is made again). `detail` is the
 * server's reason.
 */
export class RemoteGitError extends ClientError {
  readonly status: number;
  readonly detail: string;
  readonly method: string;
  readonly url: string;
  /** The code the server's answer names, when it names one (`git_workspace_gone`). */
  readonly serverCode: string | undefined;

  constructor(init: { method: string; url: string; status: number; detail: string; serverCode?: string | undefined }) {
    super('remote_git_failed', `${init.method} ${init.url} answered ${init.status}: ${init.detail}`);
    this.status = init.status;
    this.detail = init.detail;
    this.method = init.method;
    this.url = init.url;
    this.serverCode = init.serverCode;
  }
}
