import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeStripeCall {
  method: string;
  path: string;
  /** The form-encoded body as Stripe's SDK sends it (`metadata[userId]=…`). */
  form: URLSearchParams;
}

const DAY = 86_400;

/**
 * A local stand-in for the few Stripe API endpoints Refract calls, so the real SDK runs against
 * it with no network. It records every call for the tests to read.
 */
export async function startFakeStripe() {
  const calls: FakeStripeCall[] = [];
  const now = Math.floor(Date.now() / 1000);

  const body = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString()));
      req.on('end', () => resolve(text));
    });

  const server = createServer(async (req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    const form = new URLSearchParams(await body(req));
    calls.push({ method: req.method ?? '', path, form });
    const send = (status: number, json: object) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
      res.end(JSON.stringify(json));
    };
    if (req.method === 'POST' && path === '/v1/checkout/sessions')
      return send(200, {
        id: 'cs_test_fake',
        object: 'checkout.session',
        url: 'https://checkout.stripe.test/c/pay/cs_test_fake',
      });
    const subscription = path.match(/^\/v1\/subscriptions\/([\w-]+)$/);
    if (subscription)
      return send(200, {
        id: subscription[1],
        object: 'subscription',
        cancel_at_period_end: form.get('cancel_at_period_end') === 'true',
        items: { data: [{ current_period_start: now, current_period_end: now + 30 * DAY }] },
        default_payment_method: { id: 'pm_fake', card: { brand: 'mastercard', last4: '4444' } },
      });
    send(404, { error: { type: 'invalid_request_error', message: `No fake for ${path}` } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
