import sharp from 'sharp';
import { TOOL_GROUPS, TOOLS } from '@refract/contracts';
import en from '../src/locales/en.json' with { type: 'json' };
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { signUp, uniqueEmail } from './helpers';

/** Each group as the menus show it: its heading, then its tools' titles in catalogue order. */
const GROUPS = TOOL_GROUPS.map((group) => ({
  heading: en.categories[group.category],
  titles: group.tools.map((tool) => en.tools[tool.id].title),
  routes: group.tools.map((tool) => tool.route),
}));

/** Each link leads to its tool (visitors are then asked to log in, so the href is compared). */
async function expectRoutes(links: Locator, routes: string[]) {
  await expect(links).toHaveCount(routes.length);
  for (const [i, route] of routes.entries()) {
    await expect(links.nth(i)).toHaveAttribute('href', route);
  }
}

test('the Features menu lists every tool under its kind', async ({ strictPage: page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Features' }).click();
  const menu = page.getByRole('menu');
  await expect(menu.getByRole('menuitem')).toHaveText(GROUPS.flatMap((g) => g.titles));
  // The headings come in order, each before its own tools.
  const texts = await menu.locator('.mantine-Menu-label, [role="menuitem"]').allInnerTexts();
  expect(texts.map((text) => text.trim())).toEqual(GROUPS.flatMap((g) => [g.heading, ...g.titles]));
  await expectRoutes(
    menu.getByRole('menuitem'),
    GROUPS.flatMap((g) => g.routes),
  );
});

test('the mobile menu lists every tool by kind, then the account links', async ({
  strictPage: page,
}) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const menu = page.locator('#mobile-menu');
  for (const group of GROUPS) {
    const links = menu.getByRole('group', { name: group.heading }).getByRole('link');
    await expect(links).toHaveText(group.titles);
    await expectRoutes(links, group.routes);
  }
  await page.screenshot({ path: 'test-results/menus/mobile-375.png' });
  await expect(menu.getByRole('link')).toHaveText([
    ...GROUPS.flatMap((g) => g.titles),
    'Plans',
    'Log in',
    'Sign up',
  ]);
  // The last link is reachable although the list is taller than the screen.
  await menu.getByRole('link', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/signup$/);
  await expect(menu).toBeHidden();
});

test('the footer links every tool, grouped by kind', async ({ strictPage: page }) => {
  await page.goto('/');
  const footer = page.getByRole('contentinfo');
  for (const group of GROUPS) {
    const links = footer.getByRole('navigation', { name: group.heading }).getByRole('link');
    await expect(links).toHaveText(group.titles);
    await expectRoutes(links, group.routes);
  }
});

// strictPage fails on console warnings, such as react-dropzone's "Skipped '.bmp'".
test('no tool page prints a console warning or error', async ({ strictPage: page }) => {
  test.setTimeout(120_000);
  await signUp(page, uniqueEmail(), 'warnings password 1');
  for (const tool of TOOLS) {
    await page.goto(tool.route);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(en.tools[tool.id].title);
    // The drop zone is what printed the warnings; wait until it is there.
    if (tool.id !== 'htmlToImage') await expect(page.locator('input[type="file"]')).toBeAttached();
  }
});

test('the format picker filters as you type, and Enter never submits a bad value', async ({
  strictPage: page,
}) => {
  await signUp(page, uniqueEmail(), 'picker password 1');
  const converts: string[] = [];
  page.on('request', (req) => req.url().includes('/api/convert') && converts.push(req.url()));
  await page.goto('/convert');
  const image = await sharp({
    create: { width: 8, height: 8, channels: 3, background: '#3366cc' },
  })
    .png()
    .toBuffer();
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: image });
  const picker = page.getByRole('textbox', { name: 'Convert to' });
  await expect(picker).toHaveValue('PNG');

  // Typing replaces the shown format and filters the list.
  await picker.click();
  await page.keyboard.type('webp');
  await expect(picker).toHaveValue('webp');
  await expect(page.getByRole('option')).toHaveText(['WEBP']);

  // Text that names no format: Enter neither submits nor changes the choice.
  await picker.fill('zzz');
  await expect(page.getByText('No such format')).toBeVisible();
  await picker.press('Enter');
  await expect(page.getByRole('button', { name: 'Convert to PNG' })).toBeVisible();
  await picker.blur();
  await expect(picker).toHaveValue('PNG');

  // Enter on a match picks it; only the next Enter submits, with the picked format.
  await picker.click();
  await page.keyboard.type('web');
  // The list marks its first match once it has filtered (a render after the keystroke): Enter
  // picks the marked option, so the mark is awaited (a busy CI machine pressed Enter first).
  await expect(page.locator('[data-combobox-selected]')).toHaveText('WEBP');
  await picker.press('Enter');
  await expect(picker).toHaveValue('WEBP');
  await expect(page.getByRole('button', { name: 'Convert to WEBP' })).toBeVisible();
  expect(converts).toEqual([]);
  await picker.press('Enter');
  await expect(page.getByRole('link', { name: /^Download .+\.webp$/ })).toBeVisible();
  expect(converts).toHaveLength(1);
});
