import { createServer, connect, type Socket } from 'node:net';

/**
 * A loopback TCP relay in front of a real service (PostgreSQL), to break it the ways networks
 * do: `refuse()` cuts every connection and refuses new ones (the server is down), `stall()`
 * keeps connections open but passes nothing (packets dropped), `restore()` relays again. With
 * `bytesPerSecond`, what the client sends goes at that rate (a slow upload line).
 */
export async function tcpProxy(
  target: { host: string; port: number },
  port = 0,
  { bytesPerSecond }: { bytesPerSecond?: number } = {},
) {
  const sockets = new Set<Socket>();
  let stalled = false;
  const relay = (client: Socket) => {
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (chunk) => {
      if (stalled) return;
      upstream.write(chunk);
      if (!bytesPerSecond) return;
      // The next chunk is read once this one has had its time on the line.
      client.pause();
      setTimeout(() => client.resume(), (chunk.length / bytesPerSecond) * 1000);
    });
    upstream.on('data', (chunk) => stalled || client.write(chunk));
  };
  let server = createServer(relay);
  const listen = () =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  port = await listen();

  return {
    port,
    /** Down: open connections are cut and new ones refused. */
    async refuse() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    /** Connections stay open (and new ones are accepted) but nothing goes through. */
    stall() {
      stalled = true;
    },
    /** Relays again (listening again after `refuse`); connections that lost bytes while stalled are cut. */
    async restore() {
      if (stalled) for (const socket of sockets) socket.destroy();
      stalled = false;
      if (!server.listening) {
        server = createServer(relay);
        await listen();
      }
    },
    close() {
      return this.refuse();
    },
  };
}

export type TcpProxy = Awaited<ReturnType<typeof tcpProxy>>;
