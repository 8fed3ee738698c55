import { Badge, Button, Card, Divider, Group, List, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { signInPage } from '../lib/session/session-context';
import { useTranslation } from 'react-i18next';
import {
  billingCyclesOffered,
  DEFAULT_PLAN_FEATURES,
  hasTool,
  isFreePlan,
  UNLIMITED,
  type Plan,
} from '@refract/contracts';
import { formatBytes, formatMoney, formatNumber } from '../lib/format';
import { useSession } from '../lib/session/session-context';
import { UserText } from './user-text';
import { usePlanName } from '../lib/plan-name';

/** "Developer Plan" → "Developer": the cards show the name without the word. */
const shortName = (name: string) => name.replace(/\s*\bplan\b\s*/i, ' ').trim() || name;

export function PlanCard({
  plan,
  current,
  headingOrder = 2,
}: {
  plan: Plan;
  current: boolean;
  /** 3 when the cards sit under a section heading (the home page's pricing). */
  headingOrder?: 2 | 3;
}) {
  const { t } = useTranslation();
  const planName = usePlanName();
  const free = isFreePlan(plan);
  // A paid plan shows the cycles it is sold in: a fee of 0 beside a price means not offered.
  const cycles = billingCyclesOffered(plan);
  const headline = free || cycles.includes('monthly') ? 'monthly' : 'annual';
  const { user } = useSession();
  const subscribeTo = `/subscribe?planId=${encodeURIComponent(plan._id)}`;
  // A visitor signs up first (or logs in from there); a paid plan's choice goes along, and its
  // checkout opens once they are in.
  const target = user ? subscribeTo : signInPage('/signup', free ? undefined : subscribeTo);
  return (
    <Card
      data-testid="plan-card"
      withBorder
      radius="lg"
      padding="lg"
      shadow={current ? 'md' : undefined}
      style={current ? { borderColor: 'var(--mantine-primary-color-filled)' } : undefined}
    >
      <Stack gap="sm" h="100%">
        <Group justify="space-between" wrap="nowrap">
          <Title order={headingOrder} size="h3">
            <UserText>{shortName(planName(plan.name))}</UserText>
          </Title>
          {current && <Badge>{t('plans.current')}</Badge>}
        </Group>
        <div>
          <Text fz={32} fw={800} lh={1.1}>
            {free
              ? t('plans.free')
              : formatMoney(headline === 'monthly' ? plan.monthlyFee : plan.annualFee)}
            {!free && (
              <Text span c="dimmed" fz="sm" fw={400}>
                {' '}
                {headline === 'monthly' ? t('plans.perMonth') : t('plans.perYear')}
              </Text>
            )}
          </Text>
          {!free && headline === 'monthly' && cycles.includes('annual') && (
            <Text size="sm" c="dimmed">
              {t('plans.orAnnual', { price: formatMoney(plan.annualFee) })}
            </Text>
          )}
        </div>
        {plan.features.map((feature) => (
          <Text key={feature} size="sm">
            {/* The server's default line is English; show it in the user's language. */}
            {feature === DEFAULT_PLAN_FEATURES[0] ? t('plans.allServicesIncluded') : feature}
          </Text>
        ))}
        <Text size="sm">{t('plans.mediaFiles', { size: formatBytes(plan.mediaMaxBytes) })}</Text>
        <Text size="sm">{t('plans.imageFiles', { size: formatBytes(plan.imageMaxBytes) })}</Text>
        <Divider />
        <List size="xs" spacing={2} style={{ flex: 1 }}>
          {plan.services
            .filter((service) => hasTool(service.name))
            .map((service) => (
              <List.Item key={service.name}>
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text size="xs">{t(`services.${service.name}`)}</Text>
                  <Text size="xs" fw={600}>
                    {service.monthlyQuota === UNLIMITED
                      ? t('plans.unlimited')
                      : t('plans.perMonthQuota', {
                          count: service.monthlyQuota,
                          formatted: formatNumber(service.monthlyQuota),
                        })}
                  </Text>
                </Group>
              </List.Item>
            ))}
        </List>
        <Button
          component={Link}
          to={target}
          variant={current ? 'light' : 'filled'}
          disabled={current}
          fullWidth
        >
          {current ? t('plans.current') : free ? t('plans.startFree') : t('plans.select')}
        </Button>
      </Stack>
    </Card>
  );
}
