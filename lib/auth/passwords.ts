import { hash, verify } from "@node-rs/argon2";

// argon2id with OWASP's second recommended parameter set (19 MiB, 2 iterations).
const options = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

// Verified against when the account does not exist, so a missing account costs the same time
// as a wrong password and sign-in timing does not reveal which emails are registered.
let decoyHash: Promise<string> | undefined;
export function decoyPasswordHash(): Promise<string> {
  decoyHash ??= hashPassword("mnemo-decoy-password-never-matches");
  return decoyHash;
}
