import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { replyError } from './http-error-reply.js';

/** The realm named in every `WWW-Authenticate` challenge. */
const REALM = 'toolhost-mcp';

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Whether the request carries `Authorization: Bearer <token>`; otherwise answers it with 400 or 401 and a challenge.
 * RFC 6750 section 3.1: no credentials get a bare challenge, a malformed request invalid_request, a wrong token invalid_token.
 */
export function authorizeBearer(req: IncomingMessage, res: ServerResponse, token: string): boolean {
  const match = /^Bearer(?:\s+(.*))?$/i.exec(req.headers.authorization ?? '');
  if (!match) {
    replyError(res, 401, 'Unauthorized: send Authorization: Bearer <token>', { 'www-authenticate': `Bearer realm="${REALM}"` });
    return false;
  }
  const given = (match[1] ?? '').trim();
  if (given === '') {
    const message = 'Bad request: the Authorization header names Bearer but carries no token';
    replyError(res, 400, message, {
      'www-authenticate': `Bearer realm="${REALM}", error="invalid_request", error_description="${message}"`,
    });
    return false;
  }
  if (!sameToken(given, token)) {
    const message = 'Unauthorized: the bearer token is wrong';
    replyError(res, 401, message, { 'www-authenticate': `Bearer realm="${REALM}", error="invalid_token", error_description="${message}"` });
    return false;
  }
  return true;
}
