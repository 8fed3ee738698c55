import { Alert, Container, SimpleGrid } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { formatDate } from '../../lib/format';
import { usePlans, useSubscriptionStatus, useUserStats } from '../../lib/queries';
import { PlanCard } from './plan-card';

export function PlansPage() {
  const { t } = useTranslation();
  const plans = usePlans();
  const stats = useUserStats();
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
        {(list) => (
          <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
            {list
              .filter((plan) => plan.name !== 'admin')
              .map((plan) => (
                <PlanCard key={plan._id} plan={plan} current={stats.data?.plan._id === plan._id} />
              ))}
          </SimpleGrid>
        )}
      </QueryState>
    </Container>
  );
}
