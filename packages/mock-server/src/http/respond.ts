import type { Context } from 'hono';
import type * as z from 'zod/mini';
import { type AnyOutcome, JSON_INVALID, parseInput, type ValidationIssue } from '../operations/outcome.js';
import { toJsonText } from '../rules/json-text.js';
import type { GuardEnv } from './transport.js';

/**
 * An answer's headers as @hono/node-server writes a Response: a WHATWG Response's headers (the
 * outcome's own, its content type and request id, by name), then, where the transport writes it
 * (node:http), its length. Without headers of its own (every success) the object is a literal,
 * which node:http stores faster than a spread. The request id is written here, never added to a
 * Response afterwards, so that the fast lane and the router write the same headers.
 */
export function answerHeaders(
  outcome: AnyOutcome,
  requestId: string,
  contentLength?: number,
): Record<string, string | number> {
  const headers: Record<string, string | number> = outcome.headers
    ? Object.fromEntries(
        Object.entries({
          ...outcome.headers,
          'content-type': 'application/json',
          'x-request-id': requestId,
        }).sort(([a], [b]) => (a < b ? -1 : 1)),
      )
    : { 'content-type': 'application/json', 'x-request-id': requestId };
  if (contentLength !== undefined) headers['content-length'] = contentLength;
  return headers;
}

/** Writes an Outcome as a JSON response; `requestId` is the request's (`c.env.requestId` in a route). */
export function respond(outcome: AnyOutcome, requestId: string): Response {
  return new Response(toJsonText(outcome.body), {
    status: outcome.status,
    headers: answerHeaders(outcome, requestId) as Record<string, string>,
  });
}

/** A JSON text's value: undefined for an empty one, a tagged error for malformed JSON. */
function jsonValue(text: string): { ok: true; value: unknown } | { ok: false } {
  if (text.trim() === '') return { ok: true, value: undefined };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** Parses a JSON text with `schema`: the data, or every problem as 422 entries. */
export function parseJsonText<T>(
  text: string,
  schema: z.ZodMiniType<T>,
): { ok: true; data: T } | { ok: false; issues: ValidationIssue[] } {
  const body = jsonValue(text);
  return body.ok ? parseInput(schema, body.value, 'body') : { ok: false, issues: [JSON_INVALID] };
}

/** Reads a JSON body and parses it with `schema`: the data, or every problem as 422 entries. */
export async function parseJsonBody<T>(
  c: Context<GuardEnv>,
  schema: z.ZodMiniType<T>,
): Promise<{ ok: true; data: T } | { ok: false; issues: ValidationIssue[] }> {
  return parseJsonText(c.env?.body ?? (await c.req.text()), schema);
}
