import { Button, Group, Modal, Paper, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/error-alert';
import { api } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useSubscriptionStatus } from '../../lib/queries';
import { useErrorMessage } from '../../lib/use-error-message';
import { usePlanName } from '../../lib/plan-name';

/** The paid subscription, with a cancel that keeps it to the end of the period. */
export function SubscriptionPanel() {
  const { t } = useTranslation();
  const planName = usePlanName();
  const errorMessage = useErrorMessage();
  const status = useSubscriptionStatus();
  const queryClient = useQueryClient();
  const [confirming, confirm] = useDisclosure(false);
  const cancel = useMutation({
    mutationFn: () => api('/api/payments/cancel-subscription', { method: 'POST' }),
    onSuccess: async () => {
      confirm.close();
      await queryClient.invalidateQueries({ queryKey: ['subscription-status'] });
    },
  });
  const subscription = status.data?.subscription;
  if (!subscription || subscription.status !== 'active') return null;
  const end = formatDate(subscription.userDetails.subscriptionEndDate);
  return (
    <Paper withBorder radius="lg" p="lg" mb="lg">
      <Group justify="space-between" wrap="wrap">
        <Text>
          {subscription.cancelAtPeriodEnd
            ? t('billing.dashboard.endsOn', { date: end })
            : t('billing.dashboard.renewsOn', {
                plan: planName(subscription.planDetails.name),
                cycle: t(`billing.${subscription.billingType}`),
                date: end,
              })}
        </Text>
        {!subscription.cancelAtPeriodEnd && (
          <Button variant="default" color="red" onClick={confirm.open}>
            {t('billing.dashboard.cancel')}
          </Button>
        )}
      </Group>
      <Modal
        opened={confirming}
        onClose={confirm.close}
        title={t('billing.dashboard.cancel')}
        centered
      >
        <Text mb="md">{t('billing.dashboard.confirm', { date: end })}</Text>
        <ErrorAlert message={cancel.error ? errorMessage(cancel.error) : null} />
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={confirm.close}>
            {t('billing.dashboard.keep')}
          </Button>
          <Button color="red" loading={cancel.isPending} onClick={() => cancel.mutate()}>
            {t('billing.dashboard.cancel')}
          </Button>
        </Group>
      </Modal>
    </Paper>
  );
}
