/**
 * The error body of the operator's routes (the admin API, the codec endpoint):
 * `{ error: { code, message, ...details } }`, with its HTTP status.
 */
import type { Response } from 'express';

export type AdminErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'invalid_parameter'
  | 'too_large'
  | 'not_found'
  | 'already_ended'
  | 'undecodable'
  | 'too_many_attempts'
  | 'unavailable';

export function adminError(
  res: Response,
  status: number,
  code: AdminErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): void {
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .json({ error: { code, message, ...details } });
}

/** A request the admin API refuses (400), naming the query parameter or field at fault. */
export class InvalidParameter extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message);
  }
}
