import "server-only";
import type { PrismaClient } from "../../db/generated/client";
import { notFound, parseInput } from "../../errors";
import { idSchema } from "./people-schemas";

/** The user with this id; not found for a malformed or unknown id. */
export async function findUser(prisma: PrismaClient, userId: unknown) {
  const id = parseInput(idSchema, userId);
  const user = await prisma.user.findUnique({ where: { id } });
  if (!user) throw notFound();
  return user;
}
