import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { UNLIMITED, type Service } from '@refract/contracts';
import { formatDate, formatNumber } from '../../lib/format';
import { useUserStats } from '../../lib/queries';
import { useSession } from '../../lib/session/session-context';

/**
 * The submit area of every tool page: the uses of the page's service left in this period and
 * when they reset, beside the button. With none left it says so, with the reset date and the
 * plans, and the button is off, so nothing is uploaded only to be refused. A visitor is told
 * that running it will ask them to sign in, and that the work stays.
 */
export function ToolSubmit(props: {
  service: Service;
  label: string;
  busy: boolean;
  disabled?: boolean;
  /** The latest result: a new one has used a use, so the figures are read again. */
  result?: unknown;
  /** Beside the button (e.g. Cancel while a job runs). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const stats = useUserStats();
  useEffect(() => {
    if (props.result) void queryClient.invalidateQueries({ queryKey: ['user-stats'] });
  }, [props.result, queryClient]);

  const usage = stats.data?.usage.find((row) => row.service === props.service);
  const date = stats.data && formatDate(stats.data.periodEnd, { dateStyle: 'medium' });
  const exhausted = usage !== undefined && usage.quota !== UNLIMITED && usage.remaining <= 0;
  return (
    <Stack gap={6}>
      {!user && (
        <Text size="sm" c="dimmed">
          {t('tool.signInToRun')}
        </Text>
      )}
      {usage && (
        <Text
          size="sm"
          c={exhausted ? 'red.8' : 'dimmed'}
          data-testid="quota-line"
          role={exhausted ? 'alert' : undefined}
        >
          {usage.quota === UNLIMITED
            ? t('tool.quota.unlimited')
            : exhausted
              ? t('tool.quota.none', { date })
              : t('tool.quota.left', {
                  remaining: formatNumber(usage.remaining),
                  quota: formatNumber(usage.quota),
                  date,
                })}
          {exhausted && ' '}
          {exhausted && (
            <Anchor component={Link} to="/plans" size="sm">
              {t('tool.quota.plans')}
            </Anchor>
          )}
        </Text>
      )}
      <Group>
        <Button
          type="submit"
          loading={props.busy}
          disabled={props.disabled || props.busy || exhausted}
          size="md"
        >
          {props.label}
        </Button>
        {props.children}
      </Group>
    </Stack>
  );
}
