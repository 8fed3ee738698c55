import { Button, Container, Group, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

const REDIRECT_SECONDS = 5;

/** /success: the plan is active; five seconds, then the dashboard. */
export function PaymentSuccessPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [left, setLeft] = useState(REDIRECT_SECONDS);

  useEffect(() => {
    // The plan just changed: what the app knows about it is stale.
    void queryClient.invalidateQueries();
    const timer = setInterval(() => setLeft((s) => s - 1), 1000);
    return () => clearInterval(timer);
  }, [queryClient]);

  useEffect(() => {
    if (left <= 0) navigate('/dashboard', { replace: true });
  }, [left, navigate]);

  return (
    <ResultCard
      ok
      title={t('pages.success.title')}
      body={t('billing.success.body')}
      note={t('billing.success.redirect', { seconds: Math.max(left, 0) })}
    />
  );
}

/** /cancel: the payment did not go through; nothing was charged. */
export function PaymentCancelPage() {
  const { t } = useTranslation();
  return (
    <ResultCard
      ok={false}
      title={t('pages.cancel.title')}
      body={t('billing.cancel.body')}
      again={t('billing.cancel.again')}
    />
  );
}

/** `again`: the label of a way back to the plans, offered when the payment did not go through. */
function ResultCard(props: {
  ok: boolean;
  title: string;
  body: string;
  note?: string;
  again?: string;
}) {
  const { t } = useTranslation();
  const Icon = props.ok ? IconCircleCheck : IconCircleX;
  return (
    <Container size="xs" py={64}>
      <Paper withBorder radius="lg" p="xl">
        <Stack align="center" ta="center">
          <ThemeIcon size={64} radius="xl" color={props.ok ? 'teal' : 'red'} variant="light">
            <Icon size={40} aria-hidden />
          </ThemeIcon>
          <Title order={1} size="h2">
            {props.title}
          </Title>
          <Text>{props.body}</Text>
          {props.note && (
            <Text size="sm" c="dimmed" role="status">
              {props.note}
            </Text>
          )}
          <Group justify="center">
            {props.again && (
              <Button component={Link} to="/plans">
                {props.again}
              </Button>
            )}
            <Button component={Link} to="/dashboard" variant={props.again ? 'default' : 'filled'}>
              {t('billing.goDashboard')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}
