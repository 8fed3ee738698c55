import { useTranslation } from 'react-i18next';
import { TOOLS } from '@refract/contracts';
import { PlannedPage } from '../../components/planned-page';

type PageKey = 'subscribe' | 'success' | 'cancel' | 'paymentHistory' | 'adminPayments';

/** A page that later issues fill; until then it names what it will hold. */
export function PlannedScreen({ page }: { page: PageKey }) {
  const { t } = useTranslation();
  return <PlannedPage title={t(`pages.${page}.title`)} description={t(`pages.${page}.planned`)} />;
}

export function PlannedTool({ id }: { id: (typeof TOOLS)[number]['id'] }) {
  const { t } = useTranslation();
  return <PlannedPage title={t(`tools.${id}.title`)} description={t('pages.tool.planned')} />;
}

/** Who may open a route (spec section 2); the server checks every call again. */
export type RouteAccess = 'public' | 'signed-in' | 'user' | 'admin';

/** Routes of the spec's route table whose pages are not built yet. */
export const plannedRoutes = (
  /** Tools whose real pages the router already has. */
  builtTools: readonly string[],
): { path: string; access: RouteAccess; element: React.ReactElement }[] => [
  { path: '/subscribe', access: 'signed-in', element: <PlannedScreen page="subscribe" /> },
  { path: '/success', access: 'public', element: <PlannedScreen page="success" /> },
  { path: '/cancel', access: 'public', element: <PlannedScreen page="cancel" /> },
  { path: '/payment-history', access: 'user', element: <PlannedScreen page="paymentHistory" /> },
  {
    path: '/admin/payment-history',
    access: 'admin',
    element: <PlannedScreen page="adminPayments" />,
  },
  ...TOOLS.filter((tool) => !builtTools.includes(tool.id)).map((tool) => ({
    path: tool.route,
    access: 'signed-in' as RouteAccess,
    element: <PlannedTool id={tool.id} />,
  })),
];
