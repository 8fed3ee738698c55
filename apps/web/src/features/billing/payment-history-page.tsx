import { Alert, Container, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Payment } from '@refract/contracts';
import { PageHeader } from '../../components/page-header';
import { PaymentList } from '../../components/payment-list';
import { QueryState } from '../../components/query-state';
import { api } from '../../lib/api';

/** /payment-history: the user's own payments, newest first. */
export function PaymentHistoryPage() {
  const { t } = useTranslation();
  const payments = useQuery({
    queryKey: ['payments'],
    queryFn: () => api<Payment[]>('/api/payments'),
  });
  return (
    <Container size="md" py="xl">
      <PageHeader title={t('pages.paymentHistory.title')} />
      <QueryState query={payments}>
        {(list) =>
          list.length === 0 ? (
            <Alert color="gray">
              <Text>{t('billing.history.empty')}</Text>
            </Alert>
          ) : (
            <PaymentList payments={list} />
          )
        }
      </QueryState>
    </Container>
  );
}
