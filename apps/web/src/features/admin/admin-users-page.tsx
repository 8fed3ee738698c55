import { Badge, Container, Group, Pagination, Paper, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { QueryState } from '../../components/query-state';
import { api } from '../../lib/api';
import { formatDate } from '../../lib/format';
import { UserText } from '../../components/user-text';
import { usePlanName } from '../../lib/plan-name';
import { UserActions } from './user-actions';

interface AdminUsers {
  users: {
    _id: string;
    name: string;
    email: string;
    role: 'admin' | 'user';
    suspended: boolean;
    subscription: { plan: string; billingType: string; endDate: string } | null;
    country: string;
  }[];
  page: number;
  pageSize: number;
  total: number;
}

export function AdminUsersPage() {
  const { t } = useTranslation();
  const planName = usePlanName();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(1);
  const users = useQuery({
    queryKey: ['admin-users', debounced, page],
    queryFn: () =>
      api<AdminUsers>(`/api/admin/users?search=${encodeURIComponent(debounced)}&page=${page}`),
    placeholderData: keepPreviousData,
  });

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
        {(data) => {
          return (
            <Paper withBorder radius="lg">
              <Table.ScrollContainer minWidth={720}>
                <Table striped highlightOnHover verticalSpacing="sm">
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
                        <Table.Td>
                          <UserText>{u.email}</UserText>
                        </Table.Td>
                        <Table.Td>
                          <Badge variant="light" color={u.role === 'admin' ? 'violet' : 'gray'}>
                            {t(`admin.users.roles.${u.role}`)}
                          </Badge>
                          {u.suspended && (
                            <Badge variant="light" color="red" ms={4}>
                              {t('admin.users.suspended')}
                            </Badge>
                          )}
                        </Table.Td>
                        <Table.Td>
                          {u.subscription
                            ? t('admin.users.subscribed', {
                                plan: planName(u.subscription.plan),
                                date: formatDate(u.subscription.endDate),
                              })
                            : t('admin.users.noSubscription')}
                        </Table.Td>
                        <Table.Td>{u.country}</Table.Td>
                        <Table.Td>
                          <UserActions user={u} />
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
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
                  total={Math.max(1, Math.ceil(data.total / data.pageSize))}
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
          );
        }}
      </QueryState>
    </Container>
  );
}
