import { Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { hasTool, UNLIMITED, type UserStats } from '@refract/contracts';
import { formatNumber } from '../../lib/format';

/** One bar per service: used of quota, and what is left. */
export function UsageList({ usage }: { usage: UserStats['usage'] }) {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      {usage
        .filter((row) => hasTool(row.service))
        .map((row) => {
          const unlimited = row.quota === UNLIMITED;
          const percent =
            unlimited || row.quota === 0 ? 0 : Math.min(100, (row.used / row.quota) * 100);
          const label = t(`services.${row.service}`);
          return (
            <div key={row.service}>
              <Group justify="space-between" gap="xs" mb={4} wrap="nowrap">
                <Text size="sm" fw={500}>
                  {label}
                </Text>
                <Text size="sm" c="dimmed" data-testid={`usage-${row.service}`}>
                  {unlimited
                    ? t('dashboard.usedUnlimited', { used: formatNumber(row.used) })
                    : t('dashboard.usedOf', {
                        used: formatNumber(row.used),
                        quota: formatNumber(row.quota),
                      })}
                </Text>
              </Group>
              <Progress
                value={unlimited ? 100 : percent}
                color={
                  unlimited ? 'teal' : percent >= 100 ? 'red' : percent >= 66 ? 'orange' : undefined
                }
                striped={unlimited}
                aria-label={label}
              />
              {!unlimited && (
                <Text size="xs" c="dimmed" mt={2}>
                  {t('dashboard.remaining', { count: row.remaining })}
                </Text>
              )}
            </div>
          );
        })}
    </Stack>
  );
}
