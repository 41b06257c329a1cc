/**
 * Runs once when a server process starts. The Node.js work lives in lib/start-up.ts so the
 * Edge bundle of this file stays free of Node APIs.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { startUp } = await import("./lib/start-up");
    await startUp();
  }
}
