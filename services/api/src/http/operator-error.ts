/**
 * The error body of the operator's routes (the admin API, the codec endpoint):
 * `{ error: { code, message, ...details } }`, with its HTTP status.
 */
import type { Response } from 'express';

export type OperatorErrorCode =
  | 'unauthorized'
  | 'forbidden'
  | 'invalid_parameter'
  | 'too_large'
  | 'not_found'
  | 'already_ended'
  | 'undecodable'
  | 'too_many_attempts'
  | 'unavailable';

export function operatorError(
  res: Response,
  status: number,
  code: OperatorErrorCode,
  message: string,
  details: Record<string, unknown> = {},
): void {
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .json({ error: { code, message, ...details } });
}
