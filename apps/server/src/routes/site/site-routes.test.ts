import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/test-app.js';

describe('GET /api/site', () => {
  let withContact: TestApp;
  let without: TestApp;
  beforeAll(async () => {
    withContact = await createTestApp('sqlite', {
      env: { CONTACT_URL: 'https://wa.me/15550100' },
    });
    without = await createTestApp('sqlite');
  });
  afterAll(async () => {
    await withContact.close();
    await without.close();
  });

  it('gives the contact link to visitors', async () => {
    const res = await withContact.app.inject({ method: 'GET', url: '/api/site' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ contactUrl: 'https://wa.me/15550100', uploadKeptSeconds: 600 });
  });

  it('answers null when CONTACT_URL is not set, so the page hides the link', async () => {
    const res = await without.app.inject({ method: 'GET', url: '/api/site' });
    expect(res.json()).toEqual({ contactUrl: null, uploadKeptSeconds: 600 });
  });
});
