import { Accordion, Anchor, Group, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { AdminPayment, Payment } from '@refract/contracts';
import { formatCents, formatCountry, formatDay, formatDayTime } from '../lib/format';
import { UserText } from './user-text';
import { usePlanName } from '../lib/plan-name';

function Detail({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </div>
  );
}

/**
 * Payments as rows that open one at a time: amount, cycle and plan when
 * closed; card, receipt, billing details and the time paid when open. Admins also see who paid.
 */
export function PaymentList({ payments }: { payments: (Payment | AdminPayment)[] }) {
  const { t } = useTranslation();
  const planName = usePlanName();
  const none = '—';
  return (
    <Accordion variant="separated" radius="md" defaultValue={null}>
      {payments.map((p) => {
        const payer = 'userId' in p ? p.userId : null;
        return (
          <Accordion.Item key={p._id} value={p._id}>
            <Accordion.Control>
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Text fw={700}>{formatCents(p.amount)}</Text>
                <Text size="sm">
                  {formatDay(p.billingCycle.startDate)} – {formatDay(p.billingCycle.endDate)}
                </Text>
                <Text size="sm" c="dimmed">
                  {t(`billing.${p.billingType}`)} · <UserText>{planName(p.planId.name)}</UserText>
                </Text>
                {payer && (
                  <Text size="sm">
                    <UserText>{payer.email}</UserText>
                  </Text>
                )}
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                <Detail
                  label={t('billing.history.card')}
                  value={
                    p.paymentMethod.brand
                      ? t('billing.history.cardEnding', {
                          brand: p.paymentMethod.brand.toUpperCase(),
                          last4: p.paymentMethod.last4 ?? '',
                        })
                      : none
                  }
                />
                <Detail label={t('billing.history.paidOn')} value={formatDayTime(p.createdAt)} />
                <Detail
                  label={t('billing.history.billingName')}
                  value={
                    p.billingDetails.name ? <UserText>{p.billingDetails.name}</UserText> : none
                  }
                />
                <Detail
                  label={t('billing.history.billingEmail')}
                  value={
                    p.billingDetails.email ? <UserText>{p.billingDetails.email}</UserText> : none
                  }
                />
                {payer && (
                  <>
                    <Detail
                      label={t('billing.admin.payer')}
                      value={
                        <>
                          <UserText>{payer.name}</UserText> · <UserText>{payer.email}</UserText>
                        </>
                      }
                    />
                    <Detail
                      label={t('billing.admin.country')}
                      value={formatCountry(payer.country)}
                    />
                  </>
                )}
                {p.receiptUrl && (
                  <Anchor href={p.receiptUrl} target="_blank" rel="noreferrer noopener" size="sm">
                    {t('billing.history.receipt')}
                  </Anchor>
                )}
              </SimpleGrid>
            </Accordion.Panel>
          </Accordion.Item>
        );
      })}
    </Accordion>
  );
}
