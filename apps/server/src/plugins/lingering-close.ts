import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * How much of a refused body is read and thrown away after the answer, at most: enough for the
 * client to finish sending a file of ordinary size and read the answer, small beside the uploads
 * the limits allow.
 */
export const LINGER_MAX_BYTES = 32 * 1024 * 1024;
/** How long the rest of a refused body is read, at most, and how long it may pause. */
const LINGER_MAX_MS = 30_000;
const LINGER_IDLE_MS = 5_000;

/**
 * An answer sent before its request's body was read (a refused upload: 401, 413, 429, 503) must
 * reach clients that send their whole body before they read (Node's fetch among them). Closed at
 * once, the connection's unread bytes make the kernel reset it, and such a client reports a
 * broken pipe with no status. So the rest of the body is read and discarded, as nginx's lingering
 * close does, and the connection then closes; past LINGER_MAX_BYTES, LINGER_MAX_MS or a pause of
 * LINGER_IDLE_MS the connection is cut, so a refused client still cannot make the server read
 * without end.
 */
export function registerLingeringClose(app: FastifyInstance) {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.raw.complete === false) {
      reply.header('connection', 'close');
      lingerOnce(request.raw);
    }
    done(null, payload);
  });
}

function lingerOnce(request: IncomingMessage) {
  const socket = request.socket as Socket & { lingering?: boolean };
  if (!socket || socket.lingering) return;
  socket.lingering = true;
  // Node closes a `connection: close` answer with socket.destroySoon(): end, then destroy once
  // the answer is written. That stays for a client that has sent all; otherwise the socket is
  // half-closed and destroyed when the client has sent the rest, or at the bounds.
  const closeGracefully = socket.destroySoon.bind(socket);
  let answered = false;
  let read = 0;
  const cut = () => {
    clearTimeout(deadline);
    clearTimeout(idle);
    socket.destroy();
  };
  const deadline = setTimeout(cut, LINGER_MAX_MS);
  const idle = setTimeout(cut, LINGER_IDLE_MS);
  // Read from now: a request read by nobody is dumped by Node once answered, and a dumped
  // request's bytes are dropped unseen, uncounted and unbounded.
  request.unpipe();
  request.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > LINGER_MAX_BYTES) cut();
    else idle.refresh();
  });
  const finish = () => {
    clearTimeout(deadline);
    clearTimeout(idle);
    closeGracefully();
  };
  request.once('end', () => answered && finish());
  request.once('error', cut);
  socket.once('close', () => {
    clearTimeout(deadline);
    clearTimeout(idle);
  });
  socket.destroySoon = () => {
    answered = true;
    if (request.complete) return finish();
    socket.end();
  };
}
