import { Box, Burger, Button, Collapse, Container, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { FeaturesMenu } from './features-menu';
import { LanguageSelector } from './language-selector';
import classes from './header.module.css';

interface NavItem {
  to: string;
  label: string;
}

/** Primary links: the two most used tools, then account links (visitors for now). */
function useNavItems() {
  const { t } = useTranslation();
  const tools: NavItem[] = [
    { to: '/convert', label: t('nav.convert') },
    { to: '/compress', label: t('nav.compress') },
  ];
  const account: NavItem[] = [
    { to: '/plans', label: t('nav.plans') },
    { to: '/login', label: t('nav.login') },
  ];
  return { tools, account, signup: { to: '/signup', label: t('nav.signup') } };
}

export function Header() {
  const { t } = useTranslation();
  const [menuOpen, menu] = useDisclosure(false);
  const { tools, account, signup } = useNavItems();

  return (
    <Box component="header" className={classes.header}>
      <Container size="lg" className={classes.bar}>
        <Group gap="lg" wrap="nowrap">
          <Link to="/" className={classes.logo}>
            <img src="/favicon.svg" alt="" width={28} height={28} />
            <Text fw={800} size="lg">
              {t('app.name')}
            </Text>
          </Link>
          <Group gap={4} visibleFrom="sm" component="nav" aria-label={t('nav.home')}>
            {tools.map((item) => (
              <Button key={item.to} component={NavLink} to={item.to} variant="subtle" color="gray">
                {item.label}
              </Button>
            ))}
            <FeaturesMenu />
            {account.map((item) => (
              <Button key={item.to} component={NavLink} to={item.to} variant="subtle" color="gray">
                {item.label}
              </Button>
            ))}
          </Group>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <LanguageSelector />
          <Button component={Link} to={signup.to} visibleFrom="sm">
            {signup.label}
          </Button>
          <Burger
            opened={menuOpen}
            onClick={menu.toggle}
            hiddenFrom="sm"
            aria-label={menuOpen ? t('nav.closeMenu') : t('nav.openMenu')}
            aria-expanded={menuOpen}
            aria-controls="mobile-menu"
          />
        </Group>
      </Container>
      <Collapse in={menuOpen} hiddenFrom="sm">
        <Stack id="mobile-menu" component="nav" gap={0} p="sm" className={classes.mobileMenu}>
          {[...tools, ...account, signup].map((item) => (
            <Button
              key={item.to}
              component={NavLink}
              to={item.to}
              variant="subtle"
              color="gray"
              justify="flex-start"
              fullWidth
              onClick={menu.close}
            >
              {item.label}
            </Button>
          ))}
        </Stack>
      </Collapse>
    </Box>
  );
}
