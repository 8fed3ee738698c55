import { Button, Group, Modal, Paper, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/error-alert';
import { periodSubscription, SubscriptionSummary } from '../../components/subscription-summary';
import { api } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { useSubscriptionStatus } from '../../lib/queries';
import { useErrorMessage } from '../../lib/use-error-message';

/** The paid or granted plan; a paid one with a cancel that keeps it to the end of the period. */
export function SubscriptionPanel() {
  const { t } = useTranslation();
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
  const subscription = periodSubscription(status.data?.subscription);
  if (!subscription || subscription.status !== 'active') return null;
  const end = formatDate(subscription.userDetails.subscriptionEndDate);
  // A granted plan just ends: nothing renews, so there is nothing to cancel.
  const renewing =
    !subscription.granted && !subscription.cancelAtPeriodEnd && !subscription.scheduledChange;
  return (
    <Paper withBorder radius="lg" p="lg" mb="lg">
      <SubscriptionSummary subscription={subscription} />
      {renewing && (
        <Group justify="flex-end" mt="sm">
          <Button variant="default" color="red" onClick={confirm.open}>
            {t('billing.dashboard.cancel')}
          </Button>
        </Group>
      )}
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
