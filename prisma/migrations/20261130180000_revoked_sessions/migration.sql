-- Signed-out sessions: the session id of a JWT cookie, kept until the session's absolute lifetime
-- has passed, so a copy of the cookie stops working at sign-out while the user's other sessions
-- go on.
CREATE TABLE "revoked_sessions" (
    "session_id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "revoked_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "revoked_sessions_pkey" PRIMARY KEY ("session_id")
);

CREATE INDEX "revoked_sessions_user_id_idx" ON "revoked_sessions"("user_id");
CREATE INDEX "revoked_sessions_expires_at_idx" ON "revoked_sessions"("expires_at");
ALTER TABLE "revoked_sessions" ADD CONSTRAINT "revoked_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
