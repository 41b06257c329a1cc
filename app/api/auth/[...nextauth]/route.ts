import { handlers } from "@/lib/auth/auth";
import { maxSignInBodyBytes, withBodyLimit } from "@/lib/http/request-body";

export const { GET } = handlers;
/** Auth.js's forms and calls (sign-in, sign-out, session updates) are small: bounded before it reads them. */
export const POST = withBodyLimit(maxSignInBodyBytes, handlers.POST);
