import { useTranslation } from 'react-i18next';
import { TOOLS } from '@refract/contracts';
import { PlannedPage } from '../../components/planned-page';

type PageKey =
  | 'login'
  | 'signup'
  | 'forgotPassword'
  | 'plans'
  | 'subscribe'
  | 'success'
  | 'cancel'
  | 'paymentHistory'
  | 'dashboard'
  | 'admin'
  | 'adminUsers'
  | 'adminPlans'
  | 'adminPayments'
  | 'terms'
  | 'privacy'
  | 'refund';

/** A page that later issues fill; until then it names what it will hold. */
export function PlannedScreen({ page }: { page: PageKey }) {
  const { t } = useTranslation();
  return <PlannedPage title={t(`pages.${page}.title`)} description={t(`pages.${page}.planned`)} />;
}

export function PlannedTool({ id }: { id: (typeof TOOLS)[number]['id'] }) {
  const { t } = useTranslation();
  return <PlannedPage title={t(`tools.${id}.title`)} description={t('pages.tool.planned')} />;
}

/** Routes of the spec's route table whose pages are not built yet. */
export const plannedRoutes = [
  { path: '/login', element: <PlannedScreen page="login" /> },
  { path: '/signup', element: <PlannedScreen page="signup" /> },
  { path: '/register', element: <PlannedScreen page="signup" /> },
  { path: '/forgot-password', element: <PlannedScreen page="forgotPassword" /> },
  { path: '/plans', element: <PlannedScreen page="plans" /> },
  { path: '/subscribe', element: <PlannedScreen page="subscribe" /> },
  { path: '/success', element: <PlannedScreen page="success" /> },
  { path: '/cancel', element: <PlannedScreen page="cancel" /> },
  { path: '/payment-history', element: <PlannedScreen page="paymentHistory" /> },
  { path: '/dashboard', element: <PlannedScreen page="dashboard" /> },
  { path: '/admin', element: <PlannedScreen page="admin" /> },
  { path: '/admin/users', element: <PlannedScreen page="adminUsers" /> },
  { path: '/admin/plans', element: <PlannedScreen page="adminPlans" /> },
  { path: '/admin/payment-history', element: <PlannedScreen page="adminPayments" /> },
  { path: '/terms-conditions', element: <PlannedScreen page="terms" /> },
  { path: '/privacy-policy', element: <PlannedScreen page="privacy" /> },
  { path: '/refund-policy', element: <PlannedScreen page="refund" /> },
  ...TOOLS.map((tool) => ({ path: tool.route, element: <PlannedTool id={tool.id} /> })),
];
