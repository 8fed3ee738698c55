import { useQuery } from '@tanstack/react-query';
import type {
  FormatsResponse,
  PaymentMode,
  Plan,
  Site,
  SubscriptionStatus,
  UserStats,
} from '@refract/contracts';
import { api } from './api';
import { useSession } from './session/session-context';

/** What this server reads and writes, and its largest files (`GET /api/formats`); fixed while it runs. */
export function useFormats() {
  return useQuery({
    queryKey: ['formats'],
    queryFn: () => api<FormatsResponse>('/api/formats'),
    staleTime: Infinity,
  });
}

/** Public plans (an admin's token also shows the hidden admin plan). */
export function usePlans() {
  return useQuery({ queryKey: ['plans'], queryFn: () => api<Plan[]>('/api/subscriptions/plans') });
}

/** A user's plan and usage, for useQuery or for reading once (queryClient.fetchQuery). */
export const userStatsQuery = (userId: string | undefined) => ({
  queryKey: ['user-stats', userId],
  queryFn: () => api<UserStats>('/api/user/stats'),
});

/** The signed-in user's plan and usage; refetched whenever a page using it mounts. */
export function useUserStats() {
  const { user } = useSession();
  return useQuery({
    ...userStatsQuery(user?._id),
    enabled: Boolean(user && !user.isAdmin),
    refetchOnMount: 'always',
  });
}

/** The user's subscription, lapsed ones included (for the "will expire" / "expired" line). */
export function useSubscriptionStatus() {
  const { user } = useSession();
  return useQuery({
    queryKey: ['subscription-status', user?._id],
    queryFn: () => api<SubscriptionStatus>('/api/payments/subscription-status'),
    enabled: Boolean(user && !user.isAdmin),
  });
}

/** Which provider takes payments; the sandbox is test mode, and the app says so. */
export function usePaymentMode() {
  return useQuery({
    queryKey: ['payment-mode'],
    queryFn: () => api<PaymentMode>('/api/payments/mode'),
    staleTime: Infinity,
  });
}

/** Public facts about this installation (the contact link); they change only on a restart. */
export function useSite() {
  return useQuery({
    queryKey: ['site'],
    queryFn: () => api<Site>('/api/site'),
    staleTime: Infinity,
  });
}
