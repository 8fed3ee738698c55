import { Button, Group, Menu, Modal, NumberInput, Select, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorAlert } from '../../components/error-alert';
import { api } from '../../lib/api';
import { usePlanName } from '../../lib/plan-name';
import { usePlans } from '../../lib/queries';
import { useErrorMessage } from '../../lib/use-error-message';

export interface ManagedUser {
  _id: string;
  name: string;
  role: 'admin' | 'user';
  suspended: boolean;
}

type Action = 'role' | 'suspend' | 'grant';

/** A user's row actions: role, suspension and a granted plan, each confirmed in a dialog. */
export function UserActions({ user }: { user: ManagedUser }) {
  const { t } = useTranslation();
  const errorMessage = useErrorMessage();
  const queryClient = useQueryClient();
  const plans = usePlans();
  const planName = usePlanName();
  const [action, setAction] = useState<Action | null>(null);
  const [planId, setPlanId] = useState<string | null>(null);
  const [months, setMonths] = useState<number>(1);
  const [done, setDone] = useState<string | null>(null);

  const apply = useMutation({
    mutationFn: async (which: Action) => {
      if (which === 'grant')
        return api(`/api/admin/users/${user._id}/grant`, { body: { planId, months } });
      const body =
        which === 'role'
          ? { role: user.role === 'admin' ? 'user' : 'admin' }
          : { suspended: !user.suspended };
      return api(`/api/admin/users/${user._id}`, { method: 'PATCH', body });
    },
    onSuccess: async () => {
      setDone(t(`admin.users.done.${action}`, { name: user.name }));
      setAction(null);
      // A search typed just before may still be loading its first answer, read before this
      // change; invalidating alone would reuse that fetch (a query without data is not
      // refetched, only joined), so it is cancelled first and fetched afresh.
      await queryClient.cancelQueries({ queryKey: ['admin-users'] });
      await queryClient.invalidateQueries({ queryKey: ['admin-users'] });
    },
  });

  const name = { name: user.name };
  const question =
    action === 'role'
      ? t(user.role === 'admin' ? 'admin.users.confirmUser' : 'admin.users.confirmAdmin', name)
      : action === 'suspend'
        ? t(user.suspended ? 'admin.users.confirmReactivate' : 'admin.users.confirmSuspend', name)
        : t('admin.users.confirmGrant', name);
  const grantable = (plans.data ?? []).filter((p) => !p.archived && p.name !== 'admin');

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button size="xs" variant="light" aria-label={t('admin.users.actionsFor', name)}>
            {t('admin.users.actions')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Item onClick={() => setAction('role')}>
            {t(user.role === 'admin' ? 'admin.users.makeUser' : 'admin.users.makeAdmin')}
          </Menu.Item>
          <Menu.Item onClick={() => setAction('suspend')}>
            {t(user.suspended ? 'admin.users.reactivate' : 'admin.users.suspend')}
          </Menu.Item>
          <Menu.Item onClick={() => setAction('grant')}>{t('admin.users.grant')}</Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {done && (
        <Text size="xs" c="teal.9" role="status" mt={4}>
          {done}
        </Text>
      )}
      <Modal
        opened={action !== null}
        onClose={() => setAction(null)}
        title={t('admin.users.confirmTitle')}
        centered
      >
        <Stack>
          <Text>{question}</Text>
          {action === 'grant' && (
            <>
              <Select
                label={t('admin.users.plan')}
                data={grantable.map((p) => ({ value: p._id, label: planName(p.name) }))}
                value={planId}
                onChange={setPlanId}
                allowDeselect={false}
              />
              <NumberInput
                label={t('admin.users.months')}
                min={1}
                max={36}
                value={months}
                onChange={(value) => setMonths(Number(value) || 1)}
              />
            </>
          )}
          <ErrorAlert message={apply.error ? errorMessage(apply.error) : null} />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAction(null)}>
              {t('common.cancel')}
            </Button>
            <Button
              loading={apply.isPending}
              disabled={action === 'grant' && !planId}
              onClick={() => action && apply.mutate(action)}
            >
              {t('admin.users.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
