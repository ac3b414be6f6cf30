// Tokens that tie a Pay action to the payment page that showed it (CSRF protection). A
// token is an HMAC of the session id under a secret of this service: a page of another site
// can neither read the payment page nor compute the token, so it cannot make a browser pay.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export interface PageTokens {
  issue(sessionId: string): string;
  verify(sessionId: string, token: string): boolean;
}

export function createPageTokens(secret: Buffer = randomBytes(32)): PageTokens {
  const issue = (sessionId: string) => createHmac('sha256', secret).update(sessionId).digest('base64url');
  return {
    issue,
    verify(sessionId, token) {
      // Compared as text: base64 decoding would ignore stray characters.
      const given = Buffer.from(token);
      const expected = Buffer.from(issue(sessionId));
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}
