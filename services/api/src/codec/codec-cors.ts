/**
 * CORS for the codec endpoint's /decode and /encode: the Temporal Web UI calls them from its own
 * origin, with `Content-Type: application/json` and `X-Namespace` (and `Authorization` when it
 * passes its access token), so the browser asks first (a preflight) and sends the sign-in cookie
 * only when told credentials are allowed.
 *
 * Only the configured origins (TEMPORAL_UI_URL's and CODEC_ALLOWED_ORIGINS) are answered, each by
 * its exact name, never `*`, with `Access-Control-Allow-Credentials: true`. Any other browser
 * origin is refused with 403, its preflight without CORS headers, so no other page can have a
 * browser decode with the operator's cookie. A request without an Origin (the CLI, a script) is
 * not a browser's and passes on to authorization.
 */
import type { RequestHandler } from 'express';
import { operatorError } from '../http/operator-error';

const ALLOWED_HEADERS = 'Content-Type, X-Namespace, Authorization';
const PREFLIGHT_MAX_AGE_S = 600;

export function codecCors(allowedOrigins: ReadonlyArray<string>): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    res.vary('Origin');
    const origin = req.get('origin');
    if (origin !== undefined && !allowed.has(origin)) {
      return operatorError(
        res,
        403,
        'forbidden',
        `Origin ${origin} may not call the codec endpoint: add it to CODEC_ALLOWED_ORIGINS (or set TEMPORAL_UI_URL to the Temporal Web UI's URL)`,
      );
    }
    if (origin !== undefined) {
      res.set('Access-Control-Allow-Origin', origin);
      res.set('Access-Control-Allow-Credentials', 'true');
    }
    if (req.method !== 'OPTIONS') return next();
    if (origin === undefined) return operatorError(res, 403, 'forbidden', 'A CORS preflight names its Origin');
    res
      .status(204)
      .set({
        'Access-Control-Allow-Methods': 'POST',
        'Access-Control-Allow-Headers': ALLOWED_HEADERS,
        'Access-Control-Max-Age': String(PREFLIGHT_MAX_AGE_S),
      })
      .end();
  };
}
