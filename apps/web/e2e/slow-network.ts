import { connect, createServer, type Socket } from 'node:net';

/**
 * A slow network between the browser and the app: a loopback relay that passes what the
 * browser sends at `bytesPerSecond`, and that the test can cut (every connection closed, new
 * ones refused, as when a phone loses its signal) and bring back.
 */
export async function slowNetwork(target: number, bytesPerSecond: number) {
  const sockets = new Set<Socket>();
  const relay = (client: Socket) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => {});
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    // What the browser sends waits its turn on the line before the next chunk is read.
    client.on('data', (chunk) => {
      upstream.write(chunk);
      client.pause();
      setTimeout(() => client.resume(), (chunk.length / bytesPerSecond) * 1000);
    });
    upstream.pipe(client);
  };
  let server = createServer(relay);
  const listen = (port = 0) =>
    new Promise<number>((resolve) => {
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : port);
      });
    });
  const port = await listen();
  return {
    url: `http://127.0.0.1:${port}`,
    /** The signal is lost: open connections are cut and new ones refused. */
    async cut() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
    /** The signal is back. */
    async restore() {
      server = createServer(relay);
      await listen(port);
    },
    close() {
      return this.cut();
    },
  };
}
