import type { AppErrorCode, FieldErrors } from "./errors";

export { zodFieldErrors } from "./errors";

/** What every server action returns; the UI renders each status. */
export type ActionResult<T> = { status: "ok"; data: T } | { status: "error"; code: AppErrorCode; message: string; fieldErrors?: FieldErrors };
