import { Alert, Button, Container, Group, Paper, TextInput } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AdminPayment } from '@refract/contracts';
import { PageHeader } from '../../components/page-header';
import { PaymentList } from '../../components/payment-list';
import { QueryState } from '../../components/query-state';
import { StatCard } from '../../components/stat-card';
import { api } from '../../lib/api';
import { formatCents } from '../../lib/format';

const EMPTY = { email: '', plan: '', from: '', to: '' };

/** /admin/payment-history: every payment, filtered, with the total the filter collected. */
export function AdminPaymentsPage() {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(EMPTY);
  const [filter, setFilter] = useState(EMPTY);
  const payments = useQuery({
    queryKey: ['admin-payments', filter],
    queryFn: () =>
      api<{ payments: AdminPayment[]; total: number }>(
        `/api/admin/payments?${new URLSearchParams(filter).toString()}`,
      ),
    placeholderData: keepPreviousData,
  });

  function apply(event: FormEvent) {
    event.preventDefault();
    setFilter({ ...draft });
  }

  const input = (key: keyof typeof EMPTY, type = 'text') => ({
    label: t(`billing.admin.${key}`),
    type,
    value: draft[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => {
      const value = e.currentTarget.value;
      setDraft((d) => ({ ...d, [key]: value }));
    },
  });

  return (
    <Container size="lg" py="xl">
      <PageHeader title={t('pages.adminPayments.title')} />
      <Paper withBorder radius="lg" p="md" mb="md" component="form" onSubmit={apply}>
        <Group align="flex-end" wrap="wrap">
          <TextInput {...input('email')} miw={200} style={{ flex: 1 }} />
          <TextInput {...input('plan')} miw={140} />
          <TextInput {...input('from', 'date')} />
          <TextInput {...input('to', 'date')} />
          <Button type="submit">{t('billing.admin.apply')}</Button>
        </Group>
      </Paper>
      <QueryState query={payments}>
        {(data) => (
          <>
            <StatCard label={t('billing.admin.total')} value={formatCents(data.total)} />
            <div style={{ marginTop: 16 }}>
              {data.payments.length === 0 ? (
                <Alert color="gray">{t('billing.admin.empty')}</Alert>
              ) : (
                <PaymentList payments={data.payments} />
              )}
            </div>
          </>
        )}
      </QueryState>
    </Container>
  );
}
