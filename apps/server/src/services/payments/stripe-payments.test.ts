import Stripe from 'stripe';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { adminToken, bearer, registerUser, type RegisteredUser } from '../../test/accounts.js';
import { describeEachDatabase } from '../../test/databases.js';
import { startFakeStripe } from '../../test/fake-stripe.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

const SECRET = 'whsec_test_secret';
const DAY = 86_400;
const signer = new Stripe('sk_test_signer');

describeEachDatabase('Stripe payments', (kind) => {
  let t: TestApp;
  let fake: Awaited<ReturnType<typeof startFakeStripe>>;
  let developer: string;
  beforeAll(async () => {
    fake = await startFakeStripe();
    t = await createTestApp(kind, {
      env: {
        PAYMENT_PROVIDER: 'stripe',
        STRIPE_SECRET_KEY: 'sk_test_fake',
        STRIPE_WEBHOOK_SECRET: SECRET,
        STRIPE_API_URL: fake.url,
        PUBLIC_URL: 'https://refract.example',
        CORS_ORIGINS: 'https://client.example',
      },
    });
    const plans = (await t.app.inject({ url: '/api/subscriptions/plans' })).json();
    developer = plans.find((p: { name: string }) => p.name === 'Developer')._id;
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  let eventCount = 0;
  const now = () => Math.floor(Date.now() / 1000);

  function event(type: string, object: object, created = now()) {
    eventCount += 1;
    return { id: `evt_${kind}_${eventCount}`, object: 'event', type, created, data: { object } };
  }

  function deliver(evt: object, options: { secret?: string; timestamp?: number } = {}) {
    const payload = JSON.stringify(evt);
    const header = signer.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? SECRET,
      timestamp: options.timestamp,
    });
    return t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
      payload,
    });
  }

  const metadata = (user: RegisteredUser) => ({
    userId: user.user._id,
    planId: developer,
    billingType: 'monthly',
  });

  const completed = (user: RegisteredUser, subscription: string) =>
    event('checkout.session.completed', {
      id: `cs_${subscription}`,
      object: 'checkout.session',
      metadata: metadata(user),
      subscription,
      invoice: `in_${subscription}_1`,
      amount_total: 499,
      currency: 'usd',
      customer_details: { name: 'Grace Hopper', email: user.email },
    });

  const invoicePaid = (user: RegisteredUser, subscription: string, n: number, created = now()) =>
    event(
      'invoice.paid',
      {
        id: `in_${subscription}_${n}`,
        object: 'invoice',
        billing_reason: 'subscription_cycle',
        amount_paid: 499,
        currency: 'usd',
        hosted_invoice_url: `https://invoice.stripe.test/${n}`,
        customer_email: user.email,
        customer_name: 'Grace Hopper',
        parent: { subscription_details: { subscription, metadata: metadata(user) } },
        lines: {
          data: [{ period: { start: now() + (n - 1) * 30 * DAY, end: now() + n * 30 * DAY } }],
        },
      },
      created,
    );

  const get = (url: string, user: RegisteredUser) =>
    t.app.inject({ url, headers: bearer(user.token) });
  const payments = async (user: RegisteredUser) => (await get('/api/payments', user)).json();
  const subscription = async (user: RegisteredUser) =>
    (await get('/api/payments/subscription-status', user)).json().subscription;

  it('creates a Checkout Session with the plan, the price and who bought it', async () => {
    const user = await registerUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/create-checkout-session',
      headers: bearer(user.token),
      payload: { planId: developer, billingType: 'annual' },
    });
    expect(res.json()).toEqual({ url: 'https://checkout.stripe.test/c/pay/cs_test_fake' });
    const call = fake.calls.find((c) => c.path === '/v1/checkout/sessions')!;
    expect(call.form.get('mode')).toBe('subscription');
    expect(call.form.get('line_items[0][price_data][unit_amount]')).toBe('4790');
    expect(call.form.get('line_items[0][price_data][recurring][interval]')).toBe('year');
    expect(call.form.get('subscription_data[metadata][userId]')).toBe(user.user._id);
    expect(call.form.get('success_url')).toBe('https://refract.example/success');
    expect(call.form.get('cancel_url')).toBe('https://refract.example/cancel');
  });

  it("sends Stripe's customer back to the calling site when it is one of CORS_ORIGINS", async () => {
    const user = await registerUser(t.app);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/create-checkout-session',
      headers: { ...bearer(user.token), origin: 'https://client.example' },
      payload: { planId: developer, billingType: 'monthly' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const call = fake.calls.findLast((c) => c.path === '/v1/checkout/sessions')!;
    expect(call.form.get('success_url')).toBe('https://client.example/success');
    expect(call.form.get('cancel_url')).toBe('https://client.example/cancel');
  });

  it('fulfils a completed checkout once, however often it is delivered', async () => {
    const user = await registerUser(t.app);
    const evt = completed(user, 'sub_once');
    for (let i = 0; i < 3; i++) expect((await deliver(evt)).statusCode).toBe(200);
    // Its first invoice arrives too: the same payment, not a second one.
    await deliver({ ...invoicePaid(user, 'sub_once', 1), type: 'invoice.paid' });
    const list = await payments(user);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      amount: 499,
      paymentMethod: { brand: 'mastercard', last4: '4444' },
      billingDetails: { name: 'Grace Hopper' },
    });
    expect(await subscription(user)).toMatchObject({
      status: 'active',
      planDetails: { name: 'Developer' },
    });
  });

  it('refuses forged and stale signatures with 400, changing nothing', async () => {
    const user = await registerUser(t.app);
    const evt = completed(user, 'sub_forged');
    const forged = await deliver(evt, { secret: 'whsec_someone_else' });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().code).toBe('invalid_signature');
    const stale = await deliver(evt, { timestamp: now() - 3600 });
    expect(stale.statusCode).toBe(400);
    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/subscriptions/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(evt),
    });
    expect(unsigned.statusCode).toBe(400);
    expect(await payments(user)).toEqual([]);
    expect(await subscription(user)).toMatchObject({ billingType: 'free' });
  });

  it('applies renewals that arrive out of order without shortening the subscription', async () => {
    const user = await registerUser(t.app);
    await deliver(completed(user, 'sub_order'));
    await deliver(invoicePaid(user, 'sub_order', 3));
    const afterThird = (await subscription(user)).userDetails.subscriptionEndDate;
    await deliver(invoicePaid(user, 'sub_order', 2));
    expect((await subscription(user)).userDetails.subscriptionEndDate).toBe(afterThird);
    expect(Date.parse(afterThird) - Date.now()).toBeGreaterThan(85 * DAY * 1000);
    expect(await payments(user)).toHaveLength(3);
  });

  it('follows cancels and deletions, ignoring an older event that arrives late', async () => {
    const user = await registerUser(t.app);
    await deliver(completed(user, 'sub_cancel'));
    const cancel = (flag: boolean, created: number) =>
      event(
        'customer.subscription.updated',
        { id: 'sub_cancel', object: 'subscription', cancel_at_period_end: flag },
        created,
      );
    await deliver(cancel(true, now()));
    await deliver(cancel(false, now() - 60));
    expect((await subscription(user)).cancelAtPeriodEnd).toBe(true);
    await deliver(
      event('customer.subscription.deleted', { id: 'sub_cancel', object: 'subscription' }),
    );
    expect((await subscription(user)).status).toBe('expired');
  });

  it('cancels through Stripe at the end of the period', async () => {
    const user = await registerUser(t.app);
    await deliver(completed(user, 'sub_user_cancel'));
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/payments/cancel-subscription',
      headers: bearer(user.token),
    });
    expect(res.json().subscription.cancelAtPeriodEnd).toBe(true);
    const call = fake.calls.find(
      (c) => c.path === '/v1/subscriptions/sub_user_cancel' && c.method === 'POST',
    )!;
    expect(call.form.get('cancel_at_period_end')).toBe('true');
  });

  it('has no sandbox while Stripe takes payments', async () => {
    const admin = await adminToken(t.app);
    expect(
      (await t.app.inject({ url: '/api/sandbox/checkout/x', headers: bearer(admin) })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: '/api/payments/mode' })).json()).toEqual({
      provider: 'stripe',
      testMode: false,
    });
  });
});
