// Query parameters of the control endpoints that filter or page (GET /_mock/requests, /jobs,
// /checkouts, /ledger): each read strictly, every problem a 422 entry naming its parameter,
// and an unknown parameter refused too, so a misspelt filter never silently matches everything.
import type { ValidationIssue } from '../operations/outcome.js';

export type ParamKind = 'text' | 'int' | 'time' | 'bool';

type Parsed<K extends ParamKind> = K extends 'int' | 'time' ? number : K extends 'bool' ? boolean : string;

export type ParamSpec = Record<string, { kind: ParamKind; min?: number; max?: number }>;
type ParsedParams<S extends ParamSpec> = { [N in keyof S]?: Parsed<S[N]['kind']> };

const issue = (name: string, msg: string, type: string): ValidationIssue => ({
  loc: ['query', name],
  msg,
  type,
});

function parseOne(
  name: string,
  text: string,
  spec: ParamSpec[string],
): { ok: true; value: string | number | boolean } | { ok: false; issue: ValidationIssue } {
  switch (spec.kind) {
    case 'text':
      return { ok: true, value: text };
    case 'bool':
      if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' };
      return { ok: false, issue: issue(name, 'Input should be true or false', 'bool_parsing') };
    case 'time': {
      // An ISO 8601 date and time, as the journal writes `at`.
      const at = /^\d{4}-\d{2}-\d{2}T/.test(text) ? Date.parse(text) : Number.NaN;
      if (Number.isNaN(at))
        return { ok: false, issue: issue(name, 'Input should be an ISO 8601 time', 'datetime_parsing') };
      return { ok: true, value: at };
    }
    case 'int': {
      const value = /^\d{1,9}$/.test(text) ? Number(text) : Number.NaN;
      const min = spec.min ?? 0;
      const max = spec.max ?? 999_999_999;
      if (Number.isNaN(value) || value < min || value > max)
        return {
          ok: false,
          issue: issue(name, `Input should be an integer from ${min} to ${max}`, 'int_parsing'),
        };
      return { ok: true, value };
    }
  }
}

/** Reads `params` by `spec`: the values given, or every problem. */
export function parseParams<S extends ParamSpec>(
  params: URLSearchParams,
  spec: S,
): { ok: true; data: ParsedParams<S> } | { ok: false; issues: ValidationIssue[] } {
  const data: Record<string, string | number | boolean> = {};
  const issues: ValidationIssue[] = [];
  for (const [name, text] of params) {
    const one = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (!one) {
      const known = Object.keys(spec).join(', ');
      issues.push(issue(name, `Unknown query parameter; known ones: ${known}`, 'extra_forbidden'));
    } else if (Object.hasOwn(data, name)) {
      issues.push(issue(name, 'Given more than once', 'value_error'));
    } else {
      const parsed = parseOne(name, text, one);
      if (parsed.ok) data[name] = parsed.value;
      else issues.push(parsed.issue);
    }
  }
  return issues.length ? { ok: false, issues } : { ok: true, data: data as ParsedParams<S> };
}

/** The query of a request URL (the part after `?`). */
export const searchParamsOf = (url: string) => new URL(url).searchParams;
