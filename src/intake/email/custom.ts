/**
 * Custom templates (CONTRACT "Templates"): a user's `match` (`from` address or `@domain`,
 * `subject` regular expression) and per-field regular expressions with one capture group,
 * matched against the message's text. Compiled with re2js, whose matching is linear in the
 * input, so an expression such as `(a+)+$` cannot stall intake; the text matched is bounded too.
 */
import { RE2JS } from "re2js";
import {
  CUSTOM_FIELDS,
  type CustomField,
  type CustomStatus,
  type CustomTemplate,
} from "../../domain/intake/template.ts";
import { domainMatches } from "./templates.ts";

export interface CompiledTemplate {
  id: string;
  /** What it was compiled from (what crosses to a reader worker, which compiles it again). */
  source: CustomTemplate;
  from?: string;
  subject?: RE2JS;
  fields: [CustomField, RE2JS][];
  status?: CustomStatus;
}

/** Longest expression accepted, and the most text a template's expressions read. */
export const MAX_PATTERN_LENGTH = 1000;
export const MAX_MATCH_TEXT = 200_000;
const MAX_VALUE_LENGTH = 500;

function compile(pattern: unknown): RE2JS | null {
  if (typeof pattern !== "string" || pattern.length === 0 || pattern.length > MAX_PATTERN_LENGTH) {
    return null;
  }
  try {
    return RE2JS.compile(pattern, RE2JS.CASE_INSENSITIVE | RE2JS.MULTILINE);
  } catch {
    return null;
  }
}

/** Compiles a template, or names the first field whose expression is not valid. */
export function compileTemplate(t: CustomTemplate): CompiledTemplate | { error: string } {
  const from = t.match.from?.trim().toLowerCase();
  if (!from && !t.match.subject) return { error: "match: from or subject is required" };
  let subject: RE2JS | undefined;
  if (t.match.subject !== undefined) {
    const re = compile(t.match.subject);
    if (!re) return { error: "match.subject: invalid regular expression" };
    subject = re;
  }
  const fields: [CustomField, RE2JS][] = [];
  for (const [field, pattern] of Object.entries(t.fields)) {
    if (!(CUSTOM_FIELDS as readonly string[]).includes(field)) {
      return { error: `fields.${field}: not a template field` };
    }
    const re = compile(pattern);
    if (!re) return { error: `fields.${field}: invalid regular expression` };
    fields.push([field as CustomField, re]);
  }
  return {
    id: t.id,
    source: t,
    ...(from ? { from } : {}),
    ...(subject ? { subject } : {}),
    fields,
    ...(t.status ? { status: t.status } : {}),
  };
}

/** Whether a template's `match` accepts a message (both parts when both are given). */
export function templateMatches(
  t: CompiledTemplate,
  sender: string | undefined,
  subject: string,
): boolean {
  if (t.from) {
    if (!sender) return false;
    const ok = t.from.startsWith("@")
      ? domainMatches(sender, t.from.slice(1))
      : sender.toLowerCase() === t.from;
    if (!ok) return false;
  }
  return !t.subject || t.subject.matcher(subject.slice(0, MAX_PATTERN_LENGTH * 2)).find();
}

/** The values a template's field expressions capture in a text (group 1, else the whole match). */
export function applyTemplate(
  t: CompiledTemplate,
  text: string,
): Partial<Record<CustomField, string>> {
  const input = text.slice(0, MAX_MATCH_TEXT);
  const out: Partial<Record<CustomField, string>> = {};
  for (const [field, re] of t.fields) {
    const m = re.matcher(input);
    if (!m.find()) continue;
    const value = (m.groupCount() >= 1 ? m.group(1) : m.group(0))?.trim();
    if (value) out[field] = value.slice(0, MAX_VALUE_LENGTH);
  }
  return out;
}
