/**
 * A response body read up to a size, so an issuer (or whoever answers in its name) cannot make
 * this server buffer what it likes: past `maxBytes` the read stops, the rest is cancelled, and
 * `BodyTooLarge` says so. `Content-Length` is trusted only to refuse early, never to allow.
 */

export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge';
  constructor(readonly maxBytes: number) {
    super(`the response body is larger than ${maxBytes} bytes`);
  }
}

/** The body as text (UTF-8), at most `maxBytes` of it; throws `BodyTooLarge` past it. */
export async function boundedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new BodyTooLarge(maxBytes);
  }
  if (!response.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new BodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body parsed as JSON, at most `maxBytes` of it; undefined when it is not JSON. */
export async function boundedJson(response: Response, maxBytes: number): Promise<unknown> {
  const text = await boundedText(response, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
