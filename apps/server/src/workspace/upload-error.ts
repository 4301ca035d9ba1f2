import { ServerError } from '../errors.js';

/** An upload the server refuses: a malformed multipart body (400), no `file` field (422), over the limit (413). */
export class UploadError extends ServerError {
  readonly statusCode: number;

  constructor(message: string, statusCode: 400 | 413 | 422) {
    super('upload', message);
    this.statusCode = statusCode;
  }
}
