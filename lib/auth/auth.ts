import "server-only";
import { randomUUID } from "node:crypto";
import NextAuth, { CredentialsSignin, type NextAuthConfig } from "next-auth";
import Credentials from "next-auth/providers/credentials";
import { getConfig } from "../config";
import { getPrisma } from "../db";
import { audit } from "../db/audit";
import { isAppError } from "../errors";
import { type TrustedProxies, requestClientAddress, trustedProxies } from "./client-address";
import { authenticateWithPassword } from "./authenticate";
import { createAuthLogger } from "./auth-logger";
import { sessionIdleSeconds } from "./sessions";

class RateLimitedSignIn extends CredentialsSignin {
  code = "rate_limited";
}

/** Failures of one account from one address before each further attempt from there waits: room for an owner's typos, none for a guesser. */
const signInMaxFailures = 5;
/** The first wait once signInMaxFailures is reached: long enough to stop a guesser, short for an owner who mistyped. */
const signInDelaySeconds = 30;
/** The window failures are counted over, and the longest wait (the delay doubles up to it). */
const signInWindowMinutes = 15;

let proxies: TrustedProxies | undefined;

/** The socket's peer, or behind MNEMO_TRUSTED_PROXIES the right-most untrusted X-Forwarded-For hop. */
function clientAddress(request: Request | undefined): string | null {
  proxies ??= trustedProxies(getConfig().MNEMO_TRUSTED_PROXIES);
  return requestClientAddress(request, proxies);
}

function buildConfig(): NextAuthConfig {
  const config = getConfig();
  const providers: NextAuthConfig["providers"] = [
    Credentials({
      id: "credentials",
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, request) {
        try {
          const user = await authenticateWithPassword(
            await getPrisma(),
            {
              email: String(credentials?.email ?? ""),
              password: String(credentials?.password ?? ""),
              address: clientAddress(request),
            },
            { maxFailures: signInMaxFailures, windowMinutes: signInWindowMinutes, delaySeconds: signInDelaySeconds },
          );
          return { id: user.id, email: user.email, name: user.name, sessionVersion: user.sessionVersion };
        } catch (error) {
          if (isAppError(error) && error.code === "rate_limited") throw new RateLimitedSignIn();
          if (isAppError(error)) return null;
          throw error;
        }
      },
    }),
  ];
  if (config.AUTH_OIDC_ISSUER && config.AUTH_OIDC_ID && config.AUTH_OIDC_SECRET) {
    providers.push({
      id: "oidc",
      name: config.AUTH_OIDC_NAME,
      type: "oidc",
      issuer: config.AUTH_OIDC_ISSUER,
      clientId: config.AUTH_OIDC_ID,
      clientSecret: config.AUTH_OIDC_SECRET,
    });
  }

  return {
    providers,
    secret: config.AUTH_SECRET,
    trustHost: true,
    // A wrong password logs one line, not Auth.js's stack (lib/auth/auth-logger.ts).
    logger: createAuthLogger(),
    session: { strategy: "jwt", maxAge: sessionIdleSeconds },
    pages: { signIn: "/sign-in", signOut: "/sign-out", error: "/sign-in" },
    callbacks: {
      // OIDC sign-in is for accounts an admin created: the identity provider proves the email,
      // Mnemo decides the role and projects.
      async signIn({ account, profile }) {
        if (account?.provider !== "oidc") return true;
        const email = typeof profile?.email === "string" ? profile.email.toLowerCase() : "";
        if (!email || profile?.email_verified === false) return false;
        const user = await (await getPrisma()).user.findUnique({ where: { email } });
        return Boolean(user?.active);
      },
      async jwt({ token, user, account, profile }) {
        // A new session gets its own id and sign-in time, which stay with every renewed token:
        // sign-out revokes that id (lib/auth/sessions.ts), ending this session only.
        if (user) {
          token.sid = randomUUID();
          token.sat = Math.floor(Date.now() / 1000);
        }
        if (account?.provider === "oidc" && typeof profile?.email === "string") {
          const prisma = await getPrisma();
          const found = await prisma.user.findUnique({ where: { email: profile.email.toLowerCase() } });
          if (found) {
            token.uid = found.id;
            token.sv = found.sessionVersion;
            await audit(prisma, { actorId: found.id, action: "user.sign_in", targetType: "user", targetId: found.id, details: { method: "oidc" } });
          }
        } else if (user) {
          token.uid = user.id;
          token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 0;
        }
        return token;
      },
      session({ session, token }) {
        return {
          ...session,
          userId: typeof token.uid === "string" ? token.uid : "",
          sessionVersion: typeof token.sv === "number" ? token.sv : -1,
          sessionId: typeof token.sid === "string" ? token.sid : "",
          signedInAt: typeof token.sat === "number" ? token.sat : 0,
        };
      },
    },
  };
}

export const { handlers, auth, signIn, signOut } = NextAuth(() => buildConfig());
