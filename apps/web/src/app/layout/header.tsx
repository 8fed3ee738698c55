import { Box, Burger, Button, Collapse, Container, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { startTransition } from 'react';
import { Link, NavLink, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { TOOL_GROUPS } from '@refract/contracts';
import { useSession } from '../../lib/session/session-context';
import { TestModeStrip } from '../../components/test-mode-notice';
import { FeaturesMenu } from './features-menu';
import { LanguageSelector } from './language-selector';
import { useNavItems, type NavItem } from './nav-items';
import classes from './header.module.css';

function NavButton({
  item,
  onClick,
  block,
}: {
  item: NavItem;
  onClick?: () => void;
  block?: boolean;
}) {
  return (
    <Button
      component={NavLink}
      to={item.to}
      end
      variant="subtle"
      color="gray"
      onClick={onClick}
      justify={block ? 'flex-start' : undefined}
      fullWidth={block}
    >
      {item.label}
    </Button>
  );
}

/** The burger menu's tools: the same groups as the Features menu and the footer. */
function MobileToolGroups({ onNavigate }: { onNavigate: () => void }) {
  const { t } = useTranslation();
  return TOOL_GROUPS.map((group) => (
    <Stack key={group.category} gap={0} role="group" aria-label={t(`categories.${group.category}`)}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" pt="xs" aria-hidden>
        {t(`categories.${group.category}`)}
      </Text>
      {group.tools.map((tool) => (
        <NavButton
          key={tool.id}
          item={{ to: tool.route, label: t(`tools.${tool.id}.title`) }}
          onClick={onNavigate}
          block
        />
      ))}
    </Stack>
  ));
}

export function Header() {
  const { t } = useTranslation();
  const [menuOpen, menu] = useDisclosure(false);
  const { signOut } = useSession();
  const navigate = useNavigate();
  const nav = useNavItems();

  function logout() {
    menu.close();
    // In one transition with the router's own: signed out while still on a signed-in page, its
    // guard would send the reader to log in with that page as where to go next.
    startTransition(() => {
      navigate('/login');
      signOut();
    });
  }

  const logoutButton = (block?: boolean) => (
    <Button
      variant="subtle"
      color="gray"
      onClick={logout}
      justify={block ? 'flex-start' : undefined}
      fullWidth={block}
    >
      {t('nav.logout')}
    </Button>
  );

  return (
    <Box component="header" className={classes.header}>
      <TestModeStrip />
      <Container size="lg" className={classes.bar}>
        <Group gap="lg" wrap="nowrap">
          <Link to="/" className={classes.logo}>
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <Text fw={800} size="lg">
              {t('app.name')}
            </Text>
          </Link>
          <Group gap={4} visibleFrom="md" component="nav" aria-label={t('nav.main')} wrap="nowrap">
            {nav.tools.map((item) => (
              <NavButton key={item.to} item={item} />
            ))}
            {nav.showTools && <FeaturesMenu />}
            {nav.account.map((item) => (
              <NavButton key={item.to} item={item} />
            ))}
            {nav.signedIn && logoutButton()}
          </Group>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <LanguageSelector />
          {!nav.signedIn && !nav.loading && (
            <Button component={Link} to="/signup" visibleFrom="md">
              {t('nav.signup')}
            </Button>
          )}
          <Burger
            opened={menuOpen}
            onClick={menu.toggle}
            hiddenFrom="md"
            aria-label={menuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
          />
        </Group>
      </Container>
      <Collapse in={menuOpen} hiddenFrom="md">
        <Stack
          id="mobile-menu"
          component="nav"
          aria-label={t('nav.main')}
          gap={0}
          p="sm"
          className={classes.mobileMenu}
        >
          {nav.showTools && <MobileToolGroups onNavigate={menu.close} />}
          {nav.account.map((item) => (
            <NavButton key={item.to} item={item} onClick={menu.close} block />
          ))}
          {!nav.signedIn && !nav.loading && (
            <NavButton
              item={{ to: '/signup', label: t('nav.signup') }}
              onClick={menu.close}
              block
            />
          )}
          {nav.signedIn && logoutButton(true)}
        </Stack>
      </Collapse>
    </Box>
  );
}
