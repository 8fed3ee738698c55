import '@mantine/charts/styles.layer.css';
import { BarChart } from '@mantine/charts';
import { Alert, Container, Paper, SimpleGrid, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { SERVICES, type AdminStats } from '@refract/contracts';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { StatCard } from '../../components/stat-card';
import { api } from '../../lib/api';
import { formatMoney, formatNumber } from '../../lib/format';

export function AdminDashboardPage() {
  const { t, i18n } = useTranslation();
  const rtl = i18n.dir() === 'rtl';
  const stats = useQuery({
    queryKey: ['admin-stats'],
    queryFn: () => api<AdminStats>('/api/admin/dashboard/stats'),
    refetchOnMount: 'always',
  });
  return (
    <Container size="lg" py="xl">
      <PageHeader title={t('admin.dashboard.title')} />
      <QueryState query={stats}>
        {(s) => {
          const usage = SERVICES.map((service) => ({
            service: t(`services.${service}`),
            uses: s.featureUsage[service] ?? 0,
          }));
          const totalUsage = usage.reduce((sum, row) => sum + row.uses, 0);
          return (
            <>
              {s.paymentsSandboxInProduction && (
                <Alert
                  color="red"
                  mb="lg"
                  role="alert"
                  icon={<IconAlertTriangle size={20} />}
                  title={t('admin.dashboard.sandboxInProductionTitle')}
                >
                  {t('admin.dashboard.sandboxInProduction')}
                </Alert>
              )}
              <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} mb="lg">
                <StatCard
                  label={t('admin.dashboard.totalUsers')}
                  value={formatNumber(s.userStats.total)}
                />
                <StatCard
                  label={t('admin.dashboard.activeSubscriptions')}
                  value={formatNumber(s.activeSubscriptions)}
                  hint={t('admin.dashboard.byPlan', {
                    developerName: t('planNames.developer'),
                    developer: formatNumber(s.userStats.developerPlan),
                    businessName: t('planNames.business'),
                    business: formatNumber(s.userStats.businessPlan),
                  })}
                />
                <StatCard
                  label={t('admin.dashboard.totalUsage')}
                  value={formatNumber(totalUsage)}
                />
                <StatCard
                  label={t('admin.dashboard.monthlyRevenue')}
                  value={formatMoney(s.monthlyRevenue)}
                />
              </SimpleGrid>
              {/* The chart's hidden tooltip sits past its edge and would widen a phone's page. */}
              <Paper withBorder radius="lg" p="lg" style={{ overflow: 'hidden' }}>
                <Title order={2} size="h4" mb="md">
                  {t('admin.dashboard.featureUsage')}
                </Title>
                {totalUsage === 0 ? (
                  <Text c="dimmed">{t('admin.dashboard.noUsage')}</Text>
                ) : (
                  <BarChart
                    h={Math.max(300, usage.length * 28)}
                    data={usage}
                    dataKey="service"
                    orientation="vertical"
                    // Mirrored in Arabic: names on the right, bars growing leftwards; each name
                    // isolated right to left (RLI…PDI), as the chart's SVG text runs left to right.
                    // The margin keeps a name's first letters clear of its bar, which covered
                    // them ("ضغط الصو").
                    yAxisProps={{
                      width: 180,
                      tickMargin: 10,
                      tickLine: false,
                      orientation: rtl ? 'right' : 'left',
                      tickFormatter: rtl ? (name: string) => `\u2067${name}\u2069` : undefined,
                    }}
                    xAxisProps={{ allowDecimals: false, reversed: rtl }}
                    series={[{ name: 'uses', label: t('admin.dashboard.uses'), color: 'violet.6' }]}
                  />
                )}
              </Paper>
            </>
          );
        }}
      </QueryState>
    </Container>
  );
}
