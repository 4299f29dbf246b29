import type { Request } from 'express';

/**
 * The credential a request presents: `Authorization: Bearer <token>` or `X-API-Key: <token>`.
 * Anything ambiguous is `malformed` (and answered 401 like a missing key): a second
 * Authorization or X-API-Key header (Node keeps only the first Authorization, so the raw
 * headers are counted), another scheme, or both headers with different tokens.
 */
export type PresentedCredential =
  { kind: 'none' } | { kind: 'malformed' } | { kind: 'token'; token: string; via: 'authorization' | 'x-api-key' };

const BEARER = /^Bearer ([^\s,]+)$/i;

export function presentedCredential(req: Request): PresentedCredential {
  let authorizations = 0;
  let apiKeys = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    if (name === 'authorization') authorizations++;
    else if (name === 'x-api-key') apiKeys++;
  }
  if (authorizations > 1 || apiKeys > 1) return { kind: 'malformed' };

  let bearer: string | undefined;
  if (authorizations === 1) {
    const match = BEARER.exec((req.headers.authorization ?? '').trim());
    if (!match) return { kind: 'malformed' };
    bearer = match[1];
  }
  let headerKey: string | undefined;
  if (apiKeys === 1) {
    headerKey = String(req.headers['x-api-key'] ?? '').trim();
    if (headerKey === '' || /\s|,/.test(headerKey)) return { kind: 'malformed' };
  }
  if (bearer !== undefined && headerKey !== undefined && bearer !== headerKey) return { kind: 'malformed' };
  if (bearer !== undefined) return { kind: 'token', token: bearer, via: 'authorization' };
  if (headerKey !== undefined) return { kind: 'token', token: headerKey, via: 'x-api-key' };
  return { kind: 'none' };
}
