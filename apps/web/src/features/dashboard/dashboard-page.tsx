import { Button, Container, Group, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { UNLIMITED } from '@refract/contracts';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { StatCard } from '../../components/stat-card';
import { formatDate, formatNumber } from '../../lib/format';
import { useSubscriptionStatus, useUserStats } from '../../lib/queries';
import { forgetNewAccount, isNewAccount } from '../../lib/session/new-account';
import { useSession } from '../../lib/session/session-context';
import { ApiKeysSection } from './api-keys-section';
import { RecentJobsSection } from './recent-jobs-section';
import { SubscriptionPanel } from './subscription-panel';
import { UsageList } from './usage-list';
import { usePlanName } from '../../lib/plan-name';

export function DashboardPage() {
  const { t } = useTranslation();
  const planName = usePlanName();
  const { user } = useSession();
  const stats = useUserStats();
  const granted = useSubscriptionStatus().data?.subscription?.granted === true;
  // Read once, then forgotten: the next visit is a return.
  const [newAccount] = useState(() => isNewAccount(user?._id));
  useEffect(forgetNewAccount, []);
  return (
    <Container size="lg" py="xl">
      <PageHeader
        title={t('dashboard.title')}
        subtitle={t(newAccount ? 'dashboard.greetingNew' : 'dashboard.greeting', {
          name: user?.name ?? '',
        })}
        actions={
          <Group gap="xs">
            <Button component={Link} to="/convert" variant="light">
              {t('nav.convert')}
            </Button>
            <Button component={Link} to="/compress" variant="light">
              {t('nav.compress')}
            </Button>
            <Button component={Link} to="/payment-history" variant="default">
              {t('nav.paymentHistory')}
            </Button>
            <Button component={Link} to="/plans">
              {t('dashboard.upgrade')}
            </Button>
          </Group>
        }
      />
      <SubscriptionPanel />
      <QueryState query={stats}>
        {(s) => {
          return (
            <>
              <SimpleGrid cols={{ base: 1, sm: 3 }} mb="lg">
                <StatCard
                  label={t('dashboard.imagesProcessed')}
                  value={formatNumber(s.imagesProcessed)}
                  hint={t('dashboard.thisPeriod')}
                />
                <StatCard
                  label={t('dashboard.currentPlan')}
                  value={planName(s.plan.name)}
                  hint={
                    s.subscription.endDate
                      ? t(granted ? 'dashboard.grantedUntil' : 'dashboard.renews', {
                          date: formatDate(s.subscription.endDate),
                        })
                      : t('dashboard.freePlan')
                  }
                />
                <StatCard
                  label={t('dashboard.remainingUses')}
                  value={
                    s.remainingImages === UNLIMITED
                      ? t('plans.unlimited')
                      : formatNumber(s.remainingImages)
                  }
                  hint={t('dashboard.resetsOn', { date: formatDate(s.periodEnd) })}
                />
              </SimpleGrid>
              <Paper withBorder radius="lg" p="lg">
                <Title order={2} size="h4" mb="md">
                  {t('dashboard.usageTitle')}
                </Title>
                <Text size="sm" c="dimmed" mb="md">
                  {t('dashboard.period', {
                    start: formatDate(s.periodStart),
                    end: formatDate(s.periodEnd),
                  })}
                </Text>
                <UsageList usage={s.usage} />
              </Paper>
            </>
          );
        }}
      </QueryState>
      <RecentJobsSection />
      <ApiKeysSection />
    </Container>
  );
}
