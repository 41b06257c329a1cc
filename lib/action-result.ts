import type { AppErrorCode, FieldErrors } from "./errors";

/** What every server action returns; the UI renders each status. */
export type ActionResult<T> =
  | { status: "ok"; data: T }
  | { status: "error"; code: AppErrorCode; message: string; fieldErrors?: FieldErrors };

export function zodFieldErrors(issues: { path: PropertyKey[]; message: string }[]): FieldErrors {
  const fieldErrors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "_form";
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return fieldErrors;
}
