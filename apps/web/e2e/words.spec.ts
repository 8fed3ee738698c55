import { expect, overflowsHorizontally, test } from './fixtures';
import { chooseArabic, rotateFromPage, signUp, uniqueEmail } from './helpers';

test('Arabic counts take the form their number needs: few, then the dual', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'plural password 1');
  await chooseArabic(page);
  // 3 left of every tool: few ("استخدامات"); then 2 of rotate: the dual, not "2 استخدام".
  await expect(page.getByText('3 استخدامات متبقية').first()).toBeVisible();
  await expect(page.getByText('استخدامان متبقيان')).toHaveCount(0);
  expect(await rotateFromPage(page)).toEqual([200]);
  await page.reload();
  await expect(page.getByText('استخدامان متبقيان')).toHaveCount(1);
  await expect(page.getByText(/2 استخدام(?!ان)/)).toHaveCount(0);
});

for (const language of ['ja', 'zh']) {
  test(`${language} headings break between phrases`, async ({ strictPage: page }) => {
    await page.addInitScript((lang) => localStorage.setItem('refract.language', lang), language);
    await page.setViewportSize({ width: 375, height: 900 });
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    const heading = page.getByRole('heading', { level: 1 });
    await expect(heading).toBeVisible();
    expect(await heading.evaluate((h) => getComputedStyle(h).wordBreak)).toBe('auto-phrase');
    await page.screenshot({ path: `apps/web/e2e/screenshots/heading-${language}-375.png` });
  });
}

for (const width of [375, 1280]) {
  for (const language of ['en', 'ar'] as const) {
    test(`the convert picker offers only writable formats, and says which are read only (${language}, ${width}px)`, async ({
      strictPage: page,
    }) => {
      await page.setViewportSize({ width, height: 900 });
      await signUp(page, uniqueEmail(), 'convert words password 1');
      if (language === 'ar') await chooseArabic(page);
      await page.goto('/convert');
      const { formats } = (await (await page.request.get('/api/formats')).json()) as {
        formats: { format: string; read: boolean; write: boolean }[];
      };
      const readOnly = formats.filter((f) => f.read && !f.write);
      const picker = page.getByRole('textbox', {
        name: language === 'ar' ? /تحويل إلى/ : 'Convert to',
      });
      await picker.click();
      await expect(page.getByRole('option')).toHaveCount(formats.filter((f) => f.write).length);
      await page.keyboard.press('Escape');
      if (readOnly.length > 0)
        await expect(
          page.getByText(language === 'ar' ? /يقرأ هذا الخادم أيضًا/ : /also reads/),
        ).toContainText(readOnly[0]!.format.toUpperCase());
      expect(await overflowsHorizontally(page)).toBe(false);
      await page.screenshot({ path: `apps/web/e2e/screenshots/convert-${language}-${width}.png` });
    });
  }
}
