import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = fileURLToPath(new URL(".", import.meta.url));

// "server-only" throws when imported outside React's server build; tests call services directly.
const alias = {
  "@": root,
  "server-only": fileURLToPath(new URL("./tests/support/server-only-stub.ts", import.meta.url)),
};

export default defineConfig({
  resolve: { alias },
  test: {
    // Each integration file opens its own database; two at a time suits a 2-core machine.
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          server: { deps: { inline: ["next-auth"] } },
          include: ["lib/**/*.test.ts", "app/**/*.test.ts", "components/**/*.test.ts", "prisma/**/*.test.ts", "scripts/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          // next-auth imports "next/server" without an extension, which Node's ESM loader refuses:
          // transformed by Vite instead, so a test can drive the app's own Auth.js handlers.
          server: { deps: { inline: ["next-auth"] } },
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
