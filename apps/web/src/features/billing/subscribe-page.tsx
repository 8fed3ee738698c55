import {
  Alert,
  Button,
  Container,
  Group,
  List,
  Modal,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useDisclosure } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import {
  billingCyclesOffered,
  DEFAULT_PLAN_FEATURES,
  isDowngrade,
  monthlyRate,
  type BillingType,
  type Plan,
} from '@refract/contracts';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { TestModeBanner } from '../../components/test-mode-notice';
import { api } from '../../lib/api';
import { appPath } from '../../lib/app-path';
import { formatDate, formatMoney } from '../../lib/format';
import { useSubscriptionStatus } from '../../lib/queries';
import { useErrorMessage } from '../../lib/use-error-message';
import { UserText } from '../../components/user-text';
import { periodSubscription } from '../../components/subscription-summary';
import { usePlanName } from '../../lib/plan-name';

/**
 * /subscribe?planId=…: the plan, monthly or annual, and a pay button that goes to checkout. Only
 * the cycles the plan is sold in are offered: a paid plan's cycle at 0 is not (the server
 * refuses it), and a free plan runs monthly.
 */
export function SubscribePage() {
  const { t } = useTranslation();
  const planName = usePlanName();
  const errorMessage = useErrorMessage();
  const [params] = useSearchParams();
  const planId = params.get('planId') ?? '';
  const [billingType, setBillingType] = useState<BillingType>('monthly');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [confirming, confirm] = useDisclosure(false);
  const current = periodSubscription(useSubscriptionStatus().data?.subscription);
  const plan = useQuery({
    queryKey: ['plan', planId],
    queryFn: () => api<Plan>(`/api/subscriptions/plans/${encodeURIComponent(planId)}`),
    enabled: planId !== '',
  });
  const cycles = plan.data ? billingCyclesOffered(plan.data) : [billingType];
  // The cycle picked, or the plan's only one when the picked one is not offered.
  const cycle = cycles.includes(billingType) ? billingType : cycles[0]!;
  const checkout = useMutation({
    mutationFn: () =>
      api<{ url: string; scheduledFor?: string }>('/api/subscriptions/create-checkout-session', {
        body: { planId, billingType: cycle },
      }),
    // The provider's page (or, for a free plan or a scheduled change, the dashboard).
    onSuccess: async ({ url }) => {
      await queryClient.invalidateQueries({ queryKey: ['subscription-status'] });
      const path = appPath(url);
      if (path) void navigate(path);
      else window.location.assign(url);
    },
  });

  return (
    <Container size="sm" py="xl">
      <PageHeader title={t('pages.subscribe.title')} />
      <TestModeBanner />
      {!planId ? (
        <ErrorAlert message={t('billing.subscribe.planNotLoaded')} />
      ) : (
        <QueryState query={plan}>
          {(p) => {
            const price = cycle === 'annual' ? p.annualFee : p.monthlyFee;
            const saving =
              cycles.length === 2 ? Math.round((1 - p.annualFee / (p.monthlyFee * 12)) * 100) : 0;
            const cycleLabel = (value: BillingType) =>
              value === 'annual'
                ? `${t('billing.annual')} · ${t('billing.perYear', { price: formatMoney(p.annualFee) })}`
                : `${t('billing.monthly')} · ${t('billing.perMonth', { price: formatMoney(p.monthlyFee) })}`;
            const paidNow =
              current?.status === 'active' &&
              (current.billingType === 'annual'
                ? current.planDetails.annualFee
                : current.planDetails.monthlyFee) > 0;
            // Less than what is paid for: it waits for the period's end, and the page asks first.
            const scheduled =
              paidNow &&
              isDowngrade(
                {
                  planId: current.planDetails._id,
                  monthlyFee: monthlyRate(current.planDetails),
                  billingType: current.billingType,
                },
                {
                  planId: p._id,
                  monthlyFee: monthlyRate(p),
                  billingType: cycle,
                },
              );
            const change = scheduled && {
              plan: planName(current.planDetails.name),
              next: planName(p.name),
              date: formatDate(current.userDetails.subscriptionEndDate, { dateStyle: 'medium' }),
            };
            return (
              <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
                <Stack>
                  <Title order={2}>
                    <UserText>{planName(p.name)}</UserText>
                  </Title>
                  {cycles.length > 1 ? (
                    <SegmentedControl
                      aria-label={t('billing.subscribe.cycle')}
                      value={cycle}
                      onChange={(value) => setBillingType(value as BillingType)}
                      data={cycles.map((value) => ({ value, label: cycleLabel(value) }))}
                      fullWidth
                      orientation="vertical"
                    />
                  ) : (
                    <Text fw={600}>{cycleLabel(cycle)}</Text>
                  )}
                  {saving > 0 && (
                    <Text size="sm" c="teal.9" fw={600}>
                      {t('billing.subscribe.save', { percent: saving })}
                    </Text>
                  )}
                  <List
                    spacing="xs"
                    icon={
                      <ThemeIcon size={20} radius="xl" color="teal">
                        <IconCheck size={14} aria-hidden />
                      </ThemeIcon>
                    }
                  >
                    {p.features.map((feature) => (
                      <List.Item key={feature}>
                        {/* The server's default line is English; show it in the user's language. */}
                        {feature === DEFAULT_PLAN_FEATURES[0]
                          ? t('plans.allServicesIncluded')
                          : feature}
                      </List.Item>
                    ))}
                  </List>
                  {change && (
                    <Alert color="yellow" role="status">
                      {t('billing.schedule.notice', change)}
                    </Alert>
                  )}
                  <ErrorAlert message={checkout.error ? errorMessage(checkout.error) : null} />
                  <Button
                    size="md"
                    loading={checkout.isPending || checkout.isSuccess}
                    onClick={() => (change ? confirm.open() : checkout.mutate())}
                  >
                    {change
                      ? t('billing.schedule.button', change)
                      : t('billing.subscribe.pay', { price: formatMoney(price) })}
                  </Button>
                  {change && (
                    <Modal
                      opened={confirming}
                      onClose={confirm.close}
                      title={t('billing.schedule.confirmTitle', change)}
                      centered
                    >
                      <Text mb="md">{t('billing.schedule.confirmBody', change)}</Text>
                      <Group justify="flex-end">
                        <Button variant="default" onClick={confirm.close}>
                          {t('billing.status.keep', change)}
                        </Button>
                        <Button loading={checkout.isPending} onClick={() => checkout.mutate()}>
                          {t('billing.schedule.button', change)}
                        </Button>
                      </Group>
                    </Modal>
                  )}
                  {!change && (checkout.isPending || checkout.isSuccess) && (
                    <Text size="sm" c="dimmed" role="status">
                      {t('billing.subscribe.redirecting')}
                    </Text>
                  )}
                </Stack>
              </Paper>
            );
          }}
        </QueryState>
      )}
    </Container>
  );
}
