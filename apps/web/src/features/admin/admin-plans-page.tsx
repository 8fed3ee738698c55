import { Alert, Button, Container, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Plan, PlanBody } from '@refract/contracts';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { api } from '../../lib/api';
import { usePlans } from '../../lib/queries';
import { useErrorMessage } from '../../lib/use-error-message';
import { PlanForm } from './plan-form';
import { PlanTable } from './plan-table';

export function AdminPlansPage() {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const plans = usePlans();
  const [editing, setEditing] = useState<Plan | undefined>();
  const [formKey, setFormKey] = useState(0);
  const [deleting, setDeleting] = useState<Plan | undefined>();
  const [error, setError] = useState<string | null>(null);
  const [archivedName, setArchivedName] = useState<string | null>(null);

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
    // 204 when deleted; the archived plan when it has payments or subscribers.
    mutationFn: (plan: Plan) =>
      api<Plan | undefined>(`/api/subscriptions/plans/${plan._id}`, { method: 'DELETE' }),
    onSuccess: async (archived) => {
      setError(null);
      setDeleting(undefined);
      setArchivedName(archived?.archived ? archived.name : null);
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
        {archivedName && (
          <Alert color="blue" role="status" withCloseButton onClose={() => setArchivedName(null)}>
            {t('admin.plans.archivedNotice', { name: archivedName })}
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
            <>
              <PlanTable
                plans={list.filter((plan) => !plan.archived)}
                onEdit={setEditing}
                onDelete={setDeleting}
              />
              {list.some((plan) => plan.archived) && (
                <>
                  <Title order={2} size="h4" mt="md">
                    {t('admin.plans.archivedTitle')}
                  </Title>
                  <Text size="sm" c="dimmed">
                    {t('admin.plans.archivedHint')}
                  </Text>
                  <PlanTable plans={list.filter((plan) => plan.archived)} onEdit={setEditing} />
                </>
              )}
            </>
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
