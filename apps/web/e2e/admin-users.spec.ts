import { expect, test } from './fixtures';
import { logInAsAdmin, signUp, uniqueEmail } from './helpers';

test('an admin suspends, reactivates, grants a plan and changes a role, each confirmed', async ({
  strictPage: page,
}) => {
  const email = uniqueEmail();
  await signUp(page, email, 'managed password 1');
  await page.evaluate(() => localStorage.removeItem('token'));
  await logInAsAdmin(page);
  await page.goto('/admin/users');
  await page.getByRole('textbox', { name: 'Search by name or email' }).fill(email);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);

  const act = async (item: string, confirm = true) => {
    await row.getByRole('button', { name: 'Actions for Marie Curie' }).click();
    await page.getByRole('menuitem', { name: item }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toBeVisible();
    if (confirm) await dialog.getByRole('button', { name: 'Confirm' }).click();
    return dialog;
  };

  await act('Suspend');
  await expect(row.getByText('Suspended')).toBeVisible();
  await act('Reactivate');
  await expect(row.getByText('Suspended')).toHaveCount(0);

  const dialog = await act('Grant a plan', false);
  await dialog.getByRole('textbox', { name: 'Plan' }).click();
  await page.getByRole('option', { name: 'Developer' }).click();
  await dialog.getByRole('textbox', { name: 'Months' }).fill('2');
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await expect(row).toContainText(/Developer until/);

  await act('Make admin');
  await expect(row.getByText('Admin', { exact: true })).toBeVisible();
});
