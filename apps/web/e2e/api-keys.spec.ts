import { signUp, uniqueEmail } from './helpers';
import { expect, test } from './fixtures';

/** Calls /api/user/stats from the page with an API key instead of the session. */
function statsWithKey(page: import('@playwright/test').Page, key: string) {
  return page.evaluate(async (key) => {
    const res = await fetch('/api/user/stats', { headers: { authorization: `Bearer ${key}` } });
    return { status: res.status, body: await res.json() };
  }, key);
}

test('create an API key, see it once, use it, revoke it', async ({
  strictPage: page,
  expectedHttpErrors,
}) => {
  await signUp(page, uniqueEmail(), 'api key password 1');
  const section = page.getByRole('region', { name: 'API keys' });
  await expect(section.getByText('You have no API keys yet.')).toBeVisible();

  await section.getByRole('textbox', { name: 'Key name' }).fill('Build server');
  await section.getByRole('button', { name: 'Create key' }).click();
  const shown = section.getByTestId('new-api-key');
  await expect(shown).toHaveText(/^rf_live_[\w-]{43}$/);
  const key = (await shown.textContent())!;
  const row = section.getByTestId('api-key');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('Build server');
  await expect(row).toContainText(`${key.slice(0, 14)}…`);
  await expect(row).toContainText('never used');

  const used = await statsWithKey(page, key);
  expect(used.status).toBe(200);
  expect(used.body).toHaveProperty('remainingImages');

  // Shown once: after a reload only the prefix is left, anywhere on the page.
  await page.reload();
  await expect(row).toContainText('last used');
  await expect(section.getByTestId('new-api-key')).toHaveCount(0);
  expect(await page.content()).not.toContain(key);

  await section.getByRole('button', { name: 'Revoke Build server' }).click();
  await expect(section.getByText('You have no API keys yet.')).toBeVisible();

  expectedHttpErrors.push('401 /api/user/stats');
  const refused = await statsWithKey(page, key);
  expect(refused.status).toBe(401);
  expect(refused.body.code).toBe('invalid_api_key');
});

test('the API reference page loads from this server under its CSP', async ({
  strictPage: page,
}) => {
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /Refract API/ })).toBeVisible();
  await expect(page.getByText('/api/convert', { exact: true }).first()).toBeVisible();
});
