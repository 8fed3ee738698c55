import { Alert, Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { PlanGrid } from '../../components/plan-grid';
import { QueryState } from '../../components/query-state';
import { periodSubscription, SubscriptionSummary } from '../../components/subscription-summary';
import { usePlans, useSubscriptionStatus } from '../../lib/queries';

export function PlansPage() {
  const { t } = useTranslation();
  const plans = usePlans();
  const subscription = periodSubscription(useSubscriptionStatus().data?.subscription);

  return (
    <Container size="lg" py="xl">
      <PageHeader title={t('plans.title')} subtitle={t('plans.subtitle')} />
      {subscription && (
        <Alert color={subscription.status === 'expired' ? 'red' : 'green'} mb="lg" role="status">
          <SubscriptionSummary subscription={subscription} />
        </Alert>
      )}
      <QueryState query={plans} onRetry={() => window.location.reload()}>
        {(list) => <PlanGrid plans={list} />}
      </QueryState>
    </Container>
  );
}
