import { Box, Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ContactLink } from '../../components/contact-link';
import classes from './home.module.css';

/** The opening block: what Refract does, the ways in, and the operator's contact link. */
export function Hero() {
  const { t } = useTranslation();
  return (
    <Box className={classes.hero}>
      <Container size="lg" py={64}>
        <Stack gap="md" align="center" ta="center">
          <Title order={1} maw={760} className={classes.heroTitle}>
            {t('home.title')}
          </Title>
          <Text size="lg" c="dimmed" maw={640}>
            {t('home.subtitle')}
          </Text>
          <Group justify="center" gap="sm" mt="sm">
            <Button component="a" href="#tools" size="md">
              {t('home.hero.start')}
            </Button>
            <Button component={Link} to="/plans" size="md" variant="default">
              {t('home.hero.plans')}
            </Button>
            <ContactLink size="md" variant="light" />
          </Group>
        </Stack>
      </Container>
    </Box>
  );
}
