/**
 * Where to go after signing in. Only a path on this site is accepted ("/records?x=1"), never
 * "//host" or "/\host", which browsers treat as another origin: no open redirect.
 */
export function safeCallbackUrl(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/")) return "/records";
  if (value.startsWith("//") || value.startsWith("/\\")) return "/records";
  if (/[\u0000-\u001f\u007f]/.test(value) || value.length > 2000) return "/records";
  return value;
}
