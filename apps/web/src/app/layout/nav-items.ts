import { useTranslation } from 'react-i18next';
import { useSession } from '../../lib/session/session-context';

export interface NavItem {
  to: string;
  label: string;
}

/**
 * Navigation per role. Admins see only their pages; everyone else sees
 * Convert, Compress and the Features menu, then account links.
 */
export function useNavItems() {
  const { t } = useTranslation();
  const { user, loading } = useSession();
  if (user?.isAdmin) {
    return {
      showTools: false,
      tools: [] as NavItem[],
      account: [
        { to: '/admin', label: t('nav.dashboard') },
        { to: '/admin/users', label: t('nav.users') },
        { to: '/admin/plans', label: t('nav.plansManagement') },
        { to: '/admin/payment-history', label: t('nav.paymentHistory') },
      ],
      signedIn: true,
    };
  }
  const tools = [
    { to: '/convert', label: t('nav.convert') },
    { to: '/compress', label: t('nav.compress') },
  ];
  const account = [{ to: '/plans', label: t('nav.plans') }];
  // While a stored session is being checked, show no account links rather than the wrong ones.
  if (user) account.push({ to: '/dashboard', label: t('nav.dashboard') });
  else if (!loading) account.push({ to: '/login', label: t('nav.login') });
  return { showTools: true, tools, account, signedIn: Boolean(user), loading };
}
