import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A started test server: where to reach it, and how to stop it (open connections included). */
export interface LoopbackServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Starts a fake server on a free port of 127.0.0.1, so tests never reach beyond the host.
 * `beforeClose` runs first on close (for example, to clear timers of delayed answers).
 */
export async function listenOnLoopback(server: Server, beforeClose: () => void = () => {}): Promise<LoopbackServer> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        beforeClose();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
