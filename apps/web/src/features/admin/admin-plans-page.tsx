import { Alert, Button, Container, Group, Modal, Paper, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan, PlanBody } from '@refract/contracts';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { api } from '../../lib/api';
import { formatMoney } from '../../lib/format';
import { usePlans } from '../../lib/queries';
import { useErrorMessage } from '../../lib/use-error-message';
import { PlanForm } from './plan-form';

export function AdminPlansPage() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const plans = usePlans();
  const [editing, setEditing] = useState<Plan | undefined>();
  const [formKey, setFormKey] = useState(0);
  const [deleting, setDeleting] = useState<Plan | undefined>();
  const [error, setError] = useState<string | null>(null);

  /** Back to create mode with an empty form. */
  function reset() {
    setEditing(undefined);
    setFormKey((k) => k + 1);
  }

  const save = useMutation({
    mutationFn: (body: PlanBody) =>
      editing
        ? api<Plan>(`/api/subscriptions/plans/${editing._id}`, { method: 'PUT', body })
        : api<Plan>('/api/subscriptions/plans', { body }),
    onSuccess: async () => {
      setError(null);
      reset();
      await queryClient.invalidateQueries({ queryKey: ['plans'] });
    },
    onError: (err) => setError(errorMessage(err)),
  });

  const remove = useMutation({
    mutationFn: (plan: Plan) => api(`/api/subscriptions/plans/${plan._id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      setError(null);
      setDeleting(undefined);
      await queryClient.invalidateQueries({ queryKey: ['plans'] });
    },
    onError: (err) => {
      setDeleting(undefined);
      setError(errorMessage(err));
    },
  });

  return (
    <Container size="lg" py="xl">
      <PageHeader title={t('admin.plans.title')} />
      <Stack>
        {error && (
          <Alert color="red" role="alert" withCloseButton onClose={() => setError(null)}>
            {error}
          </Alert>
        )}
        <PlanForm
          key={`${editing?._id ?? 'new'}-${formKey}`}
          plan={editing}
          busy={save.isPending}
          onSave={(body) => save.mutate(body)}
          onCancel={reset}
        />
        <QueryState query={plans}>
          {(list) => (
            <Paper withBorder radius="lg">
              <Table.ScrollContainer minWidth={520}>
                <Table verticalSpacing="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('admin.plans.name')}</Table.Th>
                      <Table.Th>{t('admin.plans.monthlyFee')}</Table.Th>
                      <Table.Th>{t('admin.plans.annualFee')}</Table.Th>
                      <Table.Th />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {list.map((plan) => (
                      <Table.Tr key={plan._id}>
                        <Table.Td>{plan.name}</Table.Td>
                        <Table.Td>{formatMoney(plan.monthlyFee)}</Table.Td>
                        <Table.Td>{formatMoney(plan.annualFee)}</Table.Td>
                        <Table.Td>
                          <Group gap="xs" justify="flex-end" wrap="nowrap">
                            <Button
                              size="xs"
                              variant="light"
                              onClick={() => setEditing(plan)}
                              aria-label={`${t('admin.plans.edit')} ${plan.name}`}
                            >
                              {t('admin.plans.edit')}
                            </Button>
                            <Button
                              size="xs"
                              variant="light"
                              color="red"
                              onClick={() => setDeleting(plan)}
                              aria-label={`${t('admin.plans.delete')} ${plan.name}`}
                            >
                              {t('admin.plans.delete')}
                            </Button>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            </Paper>
          )}
        </QueryState>
      </Stack>
      <Modal
        opened={Boolean(deleting)}
        onClose={() => setDeleting(undefined)}
        title={t('admin.plans.confirmTitle')}
        centered
      >
        <Text mb="lg">{t('admin.plans.confirmDelete', { name: deleting?.name ?? '' })}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setDeleting(undefined)}>
            {t('common.cancel')}
          </Button>
          <Button
            color="red"
            loading={remove.isPending}
            onClick={() => deleting && remove.mutate(deleting)}
          >
            {t('admin.plans.delete')}
          </Button>
        </Group>
      </Modal>
    </Container>
  );
}
