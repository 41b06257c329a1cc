import { afterAll } from "vitest";

/**
 * Closes what a test file opened (database, fake servers), in the order given, once all its tests
 * ran. Each is read when the tests end, so a resource a failed beforeAll never opened is skipped.
 */
export function closeAfterAll(...resources: (() => { close(): Promise<unknown> } | undefined)[]): void {
  afterAll(async () => {
    for (const resource of resources) await resource()?.close();
  });
}
