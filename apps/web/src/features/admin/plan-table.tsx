import { Button, Group, Paper, Table } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Plan } from '@refract/contracts';
import { formatMoney } from '../../lib/format';

/** The admins' own hidden plan: the quota rules need it, so it is never offered for deletion. */
const isAdminPlan = (plan: Plan) => plan.name === 'admin';

/** Plans with their fees and Edit / Delete; without `onDelete` (archived plans), no Delete. */
export function PlanTable({
  plans,
  onEdit,
  onDelete,
}: {
  plans: Plan[];
  onEdit: (plan: Plan) => void;
  onDelete?: (plan: Plan) => void;
}) {
  const { t } = useTranslation();
  return (
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
            {plans.map((plan) => (
              <Table.Tr key={plan._id}>
                <Table.Td>{plan.name}</Table.Td>
                <Table.Td>{formatMoney(plan.monthlyFee)}</Table.Td>
                <Table.Td>{formatMoney(plan.annualFee)}</Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => onEdit(plan)}
                      aria-label={`${t('admin.plans.edit')} ${plan.name}`}
                    >
                      {t('admin.plans.edit')}
                    </Button>
                    {onDelete && !isAdminPlan(plan) && (
                      <Button
                        size="xs"
                        variant="light"
                        color="red"
                        onClick={() => onDelete(plan)}
                        aria-label={`${t('admin.plans.delete')} ${plan.name}`}
                      >
                        {t('admin.plans.delete')}
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
