import {
  Badge,
  Container,
  Group,
  Pagination,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_USERS_PAGE_SIZE, type AdminUserRow } from '@refract/contracts';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { apiWithHeaders } from '../../lib/api';
import { formatCountry, formatDate } from '../../lib/format';
import { UserText } from '../../components/user-text';
import { usePlanName } from '../../lib/plan-name';
import { UserActions } from './user-actions';

/** One page of users: the list the API answers, and the total from its X-Total-Count. */
async function fetchUsers(search: string, page: number) {
  const query = new URLSearchParams({ search, page: String(page) });
  const { body, headers } = await apiWithHeaders<AdminUserRow[]>(`/api/admin/users?${query}`);
  return { users: body, total: Number(headers.get('x-total-count') ?? body.length) };
}

export function AdminUsersPage() {
  const { t } = useTranslation();
  const planName = usePlanName();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const users = useQuery({
    queryKey: ['admin-users', debounced, page],
    queryFn: () => fetchUsers(debounced, page),
    placeholderData: keepPreviousData,
  });

  const roleBadges = (u: AdminUserRow) => (
    <Group gap={4} wrap="wrap">
      <Badge variant="light" color={u.role === 'admin' ? 'violet' : 'gray'}>
        {t(`admin.users.roles.${u.role}`)}
      </Badge>
      {u.suspended && (
        <Badge variant="light" color="red">
          {t('admin.users.suspended')}
        </Badge>
      )}
    </Group>
  );
  const subscription = (u: AdminUserRow) =>
    u.subscription
      ? t('admin.users.subscribed', {
          plan: planName(u.subscription.plan),
          date: formatDate(u.subscription.endDate),
        })
      : t('admin.users.noSubscription');

  return (
    <Container size="lg" py="xl">
      <PageHeader title={t('admin.users.title')} />
      <TextInput
        leftSection={<IconSearch size={16} aria-hidden />}
        placeholder={t('admin.users.search')}
        aria-label={t('admin.users.search')}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(1);
        }}
        mb="md"
        maw={420}
      />
      <QueryState query={users}>
        {(data) => (
          <Paper withBorder radius="lg">
            {/* A table from tablet width up; on a phone one card per user, nothing sideways. */}
            <Table striped highlightOnHover verticalSpacing="sm" visibleFrom="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('admin.users.name')}</Table.Th>
                  <Table.Th>{t('admin.users.email')}</Table.Th>
                  <Table.Th>{t('admin.users.role')}</Table.Th>
                  <Table.Th>{t('admin.users.subscription')}</Table.Th>
                  <Table.Th>{t('admin.users.country')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.users.map((u) => (
                  <Table.Tr key={u._id}>
                    <Table.Td>
                      <UserText>{u.name}</UserText>
                    </Table.Td>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <UserText>{u.email}</UserText>
                    </Table.Td>
                    <Table.Td>{roleBadges(u)}</Table.Td>
                    <Table.Td>{subscription(u)}</Table.Td>
                    <Table.Td>{formatCountry(u.country)}</Table.Td>
                    <Table.Td>
                      <UserActions user={u} />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Stack gap={0} hiddenFrom="sm">
              {data.users.map((u) => (
                <Stack
                  key={u._id}
                  gap={6}
                  p="md"
                  data-testid="admin-user-card"
                  style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
                >
                  <Group justify="space-between" wrap="nowrap" align="flex-start">
                    <Stack gap={2} style={{ minWidth: 0 }}>
                      <Text fw={600}>
                        <UserText>{u.name}</UserText>
                      </Text>
                      <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                        <UserText>{u.email}</UserText>
                      </Text>
                    </Stack>
                    <UserActions user={u} />
                  </Group>
                  {roleBadges(u)}
                  <Text size="sm">
                    {t('admin.users.subscription')}: {subscription(u)}
                  </Text>
                  <Text size="sm">
                    {t('admin.users.country')}: {formatCountry(u.country)}
                  </Text>
                </Stack>
              ))}
            </Stack>
            {data.users.length === 0 && (
              <Text c="dimmed" p="lg" ta="center">
                {t('admin.users.none')}
              </Text>
            )}
            <Group justify="space-between" p="md">
              <Text size="sm" c="dimmed">
                {t('admin.users.total', { count: data.total })}
              </Text>
              <Pagination
                total={Math.max(1, Math.ceil(data.total / ADMIN_USERS_PAGE_SIZE))}
                value={page}
                onChange={setPage}
                size="sm"
                getControlProps={(control) => ({
                  'aria-label': t(
                    control === 'previous' ? 'common.previousPage' : 'common.nextPage',
                  ),
                })}
              />
            </Group>
          </Paper>
        )}
      </QueryState>
    </Container>
  );
}
