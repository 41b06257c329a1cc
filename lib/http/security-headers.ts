/**
 * Response headers that limit what a page may load and who may embed it. Shared by proxy.ts
 * (pages: a Content-Security-Policy with a fresh nonce per request) and next.config.ts (every
 * response, API routes and media included). No "server-only": next.config.ts loads it too.
 */

/** On every response. */
export const commonSecurityHeaders: { key: string; value: string }[] = [
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
];

/** API answers are data: nothing in them may load or run anything, nor be framed. */
export const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * Media opened on its own (an image or a recording in a tab) may show itself and nothing else;
 * the sandbox keeps any script out even if a browser ever took a file for a document.
 */
export const mediaContentSecurityPolicy =
  "default-src 'none'; img-src 'self'; media-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox";

export interface PagePolicyOptions {
  nonce: string;
  /** `next dev` needs eval for its error overlay and inline styles for hot reloading. */
  development: boolean;
  /** Served over https: ask the browser to upgrade any http sub-request. */
  https: boolean;
  /** An OIDC issuer the sign-in form hands over to (form-action also governs its redirect). */
  oidcIssuer?: string;
}

/**
 * The policy of a page. Scripts run only with this response's nonce — Next.js reads the nonce
 * from the request's policy header and puts it on its own scripts — or when loaded by such a
 * script ('strict-dynamic'), so an injected inline script or one from another origin does not
 * run. Style attributes stay allowed (React renders bar widths and chart positions with them);
 * style elements need the nonce like scripts.
 */
export function pageContentSecurityPolicy(options: PagePolicyOptions): string {
  const nonce = `'nonce-${options.nonce}'`;
  const formTargets = ["'self'"];
  if (options.oidcIssuer) {
    try {
      formTargets.push(new URL(options.oidcIssuer).origin);
    } catch {
      // An unparsable issuer is refused by the configuration check at start-up.
    }
  }
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${nonce} 'strict-dynamic'${options.development ? " 'unsafe-eval'" : ""}`,
    `style-src 'self' ${options.development ? "'unsafe-inline'" : nonce}`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' blob: data:",
    "media-src 'self' blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    `form-action ${formTargets.join(" ")}`,
    "frame-ancestors 'none'",
    "frame-src 'none'",
  ];
  if (options.https) directives.push("upgrade-insecure-requests");
  return directives.join("; ");
}

/** 128 random bits, base64: one per page response. */
export function createNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
