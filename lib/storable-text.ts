import type { z } from "zod";
import { AppError, type FieldErrors } from "./errors";

/**
 * Text the database cannot store as typed. Postgres refuses NUL (U+0000) in text and jsonb — an
 * error deep in a query, so a 500 — and an unpaired UTF-16 surrogate has no UTF-8 form, so the
 * driver silently stores U+FFFD instead. Both are refused where input enters, naming the field,
 * so a person can remove the character; search and filters refuse them rather than fail.
 */
export function unstorableTextProblem(text: string): string | null {
  if (text.includes("\u0000")) return "contains a NUL character (U+0000), which cannot be stored; remove it";
  if (!text.isWellFormed()) return "contains half of a character (an unpaired UTF-16 surrogate), which cannot be stored; type or paste that text again";
  return null;
}

export interface UnstorableText {
  path: (string | number)[];
  problem: string;
}

/**
 * Every string in a JSON-like value (strings, arrays, plain objects and their keys) that cannot
 * be stored, with its path. FormData and files are not walked: the record form reads its entries
 * against the section's fields, which name the problem at the field it belongs to.
 */
export function findUnstorableText(value: unknown, path: (string | number)[] = [], found: UnstorableText[] = []): UnstorableText[] {
  if (typeof value === "string") {
    const problem = unstorableTextProblem(value);
    if (problem) found.push({ path, problem });
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => findUnstorableText(item, [...path, index], found));
  } else if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, item] of Object.entries(value)) {
      const keyProblem = unstorableTextProblem(key);
      if (keyProblem) found.push({ path: [...path, safeKey(key)], problem: `has a name that ${keyProblem}` });
      else findUnstorableText(item, [...path, key], found);
    }
  }
  return found;
}

/** Throws a bad_request naming each field whose text cannot be stored. */
export function refuseUnstorableText(value: unknown): void {
  const found = findUnstorableText(value);
  if (found.length === 0) return;
  const fieldErrors: FieldErrors = {};
  for (const { path, problem } of found) (fieldErrors[path.join(".") || "_form"] ??= []).push(sentence(problem));
  throw new AppError("bad_request", "Some values contain characters that cannot be stored.", { fieldErrors });
}

/** The same as zod issues, for a schema's superRefine: `.superRefine(storableTextIssues)`. */
export function storableTextIssues(value: unknown, context: z.RefinementCtx): void {
  for (const { path, problem } of findUnstorableText(value)) context.addIssue({ code: "custom", path, message: sentence(problem) });
}

export function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The first `maxUnits` UTF-16 units of text, one fewer rather than half of a character. */
export function truncateText(text: string, maxUnits: number): string {
  if (text.length <= maxUnits) return text;
  const end = isHighSurrogate(text.charCodeAt(maxUnits - 1)) ? maxUnits - 1 : maxUnits;
  return text.slice(0, end);
}

function sentence(problem: string): string {
  return `${problem.charAt(0).toUpperCase()}${problem.slice(1)}.`;
}

function safeKey(key: string): string {
  return key.replace(/\u0000/g, "\\u0000").replace(/[\uD800-\uDFFF]/g, "\\uFFFD");
}
