import { Alert, Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { PlanGrid } from '../../components/plan-grid';
import { QueryState } from '../../components/query-state';
import { formatDate } from '../../lib/format';
import { usePlans, useSubscriptionStatus } from '../../lib/queries';

export function PlansPage() {
  const { t } = useTranslation();
  const plans = usePlans();
  const subscription = useSubscriptionStatus().data?.subscription;
  const expired = subscription?.status === 'expired';

  return (
    <Container size="lg" py="xl">
      <PageHeader title={t('plans.title')} subtitle={t('plans.subtitle')} />
      {subscription && (
        <Alert color={expired ? 'red' : 'green'} mb="lg" role="status">
          {t(expired ? 'plans.expired' : 'plans.willExpire', {
            plan: subscription.planDetails.name,
            date: formatDate(subscription.userDetails.subscriptionEndDate, {
              dateStyle: 'long',
              timeStyle: 'medium',
            }),
          })}
        </Alert>
      )}
      <QueryState query={plans} onRetry={() => window.location.reload()}>
        {(list) => <PlanGrid plans={list} />}
      </QueryState>
    </Container>
  );
}
