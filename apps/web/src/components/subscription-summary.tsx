import { Button, Group, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import type { BillingType, SubscriptionStatus } from '@refract/contracts';
import { api } from '../lib/api';
import { formatDate } from '../lib/format';
import { usePlanName } from '../lib/plan-name';
import { useErrorMessage } from '../lib/use-error-message';
import { ErrorAlert } from './error-alert';

type AnySubscription = NonNullable<SubscriptionStatus['subscription']>;
/** A plan with a period: bought or granted (not the free plan, which has no end). */
export type Subscription = AnySubscription & {
  billingType: BillingType;
  userDetails: { subscriptionEndDate: string };
};

/** The subscription when there is one with a period; null for the free plan or none. */
export const periodSubscription = (s: AnySubscription | null | undefined): Subscription | null =>
  s && s.billingType !== 'free' && s.userDetails.subscriptionEndDate !== null
    ? (s as Subscription)
    : null;

/**
 * One sentence for the subscription, in the user's language and date format: renews on,
 * ends on (cancelled), granted until (an admin's gift, not renewed), "Developer until 23 Dec,
 * then Basic" (a scheduled downgrade), or ended.
 */
export function subscriptionSentence(
  t: TFunction,
  subscription: Subscription,
  planName: (name: string) => string,
): string {
  const values = {
    plan: planName(subscription.planDetails.name),
    cycle: t(`billing.${subscription.billingType}`),
    date: formatDate(subscription.userDetails.subscriptionEndDate, { dateStyle: 'medium' }),
  };
  if (subscription.status === 'expired') return t('billing.status.ended', values);
  if (subscription.granted) return t('billing.status.grantedUntil', values);
  if (subscription.scheduledChange)
    return t('billing.status.scheduled', {
      ...values,
      next: planName(subscription.scheduledChange.plan.name),
    });
  return t(
    subscription.cancelAtPeriodEnd ? 'billing.status.endsOn' : 'billing.status.renewsOn',
    values,
  );
}

/** The sentence, and while a downgrade or cancel waits, the button that undoes it. */
export function SubscriptionSummary({ subscription }: { subscription: Subscription }) {
  const { t } = useTranslation();
  const planName = usePlanName();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const undo = useMutation({
    mutationFn: () => api('/api/payments/undo-scheduled-change', { method: 'POST' }),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['subscription-status'] }),
        queryClient.invalidateQueries({ queryKey: ['user-stats'] }),
      ]),
  });
  const waiting =
    subscription.status === 'active' &&
    (subscription.cancelAtPeriodEnd || subscription.scheduledChange !== null);
  return (
    <>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Text data-testid="subscription-summary">
          {subscriptionSentence(t, subscription, planName)}
        </Text>
        {waiting && (
          <Button variant="light" loading={undo.isPending} onClick={() => undo.mutate()}>
            {t('billing.status.keep', { plan: planName(subscription.planDetails.name) })}
          </Button>
        )}
      </Group>
      <ErrorAlert message={undo.error ? errorMessage(undo.error) : null} />
    </>
  );
}
