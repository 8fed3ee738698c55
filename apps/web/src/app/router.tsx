import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, useRoutes, type RouteObject } from 'react-router';
import { toolById, type ToolId } from '@refract/contracts';
import { HomePage } from '../features/home/home-page';
import { LEGAL_DOCUMENTS, type LegalDocument } from '../features/legal/legal-documents';
import { LegalPage } from '../features/legal/legal-page';
import { PlansPage } from '../features/plans/plans-page';
import { PaymentCancelPage, PaymentSuccessPage } from '../features/billing/payment-result-pages';
import { FullPageSpinner, Guard, SignedInOrCheckoutLink, VisitorOnly, type Access } from './guards';
import { AppLayout } from './layout/app-layout';
import { NotFoundPage } from './not-found-page';

// Signed-in pages load on demand: the admin charts alone would double the first download.
// So do the account pages (and their forms' Mantine parts): the home page does not show them.
const LoginPage = lazy(() =>
  import('../features/auth/login-page').then((m) => ({ default: m.LoginPage })),
);
const SignupPage = lazy(() =>
  import('../features/auth/signup-page').then((m) => ({ default: m.SignupPage })),
);
const ForgotPasswordPage = lazy(() =>
  import('../features/auth/forgot-password-page').then((m) => ({
    default: m.ForgotPasswordPage,
  })),
);
const AdminDashboardPage = lazy(() =>
  import('../features/admin/admin-dashboard-page').then((m) => ({ default: m.AdminDashboardPage })),
);
const AdminPlansPage = lazy(() =>
  import('../features/admin/admin-plans-page').then((m) => ({ default: m.AdminPlansPage })),
);
const AdminUsersPage = lazy(() =>
  import('../features/admin/admin-users-page').then((m) => ({ default: m.AdminUsersPage })),
);
const ConvertPage = lazy(() =>
  import('../features/tools/convert/convert-page').then((m) => ({ default: m.ConvertPage })),
);
const CompressPage = lazy(() =>
  import('../features/tools/compress/compress-page').then((m) => ({ default: m.CompressPage })),
);
const ResizePage = lazy(() =>
  import('../features/tools/resize/resize-page').then((m) => ({ default: m.ResizePage })),
);
const RemoveBackgroundPage = lazy(() =>
  import('../features/tools/remove-background/remove-background-page').then((m) => ({
    default: m.RemoveBackgroundPage,
  })),
);
const RotatePage = lazy(() =>
  import('../features/tools/rotate/rotate-page').then((m) => ({ default: m.RotatePage })),
);
const UpscalePage = lazy(() =>
  import('../features/tools/upscale/upscale-page').then((m) => ({ default: m.UpscalePage })),
);
const HtmlToImagePage = lazy(() =>
  import('../features/tools/html-to-image/html-to-image-page').then((m) => ({
    default: m.HtmlToImagePage,
  })),
);
const ConvertAudioPage = lazy(() =>
  import('../features/tools/convert-audio/convert-audio-page').then((m) => ({
    default: m.ConvertAudioPage,
  })),
);
const ConvertVideoPage = lazy(() =>
  import('../features/tools/convert-video/convert-video-page').then((m) => ({
    default: m.ConvertVideoPage,
  })),
);
const CompressAudioPage = lazy(() =>
  import('../features/tools/compress-audio/compress-audio-page').then((m) => ({
    default: m.CompressAudioPage,
  })),
);
const CompressVideoPage = lazy(() =>
  import('../features/tools/compress-video/compress-video-page').then((m) => ({
    default: m.CompressVideoPage,
  })),
);
const CropPage = lazy(() =>
  import('../features/tools/crop/crop-page').then((m) => ({ default: m.CropPage })),
);
const WatermarkPage = lazy(() =>
  import('../features/tools/watermark/watermark-page').then((m) => ({ default: m.WatermarkPage })),
);
const MemePage = lazy(() =>
  import('../features/tools/meme/meme-page').then((m) => ({ default: m.MemePage })),
);
const BlurFacePage = lazy(() =>
  import('../features/tools/blur-face/blur-face-page').then((m) => ({ default: m.BlurFacePage })),
);
const SubscribePage = lazy(() =>
  import('../features/billing/subscribe-page').then((m) => ({ default: m.SubscribePage })),
);
const SandboxCheckoutPage = lazy(() =>
  import('../features/billing/sandbox-checkout-page').then((m) => ({
    default: m.SandboxCheckoutPage,
  })),
);
const PaymentHistoryPage = lazy(() =>
  import('../features/billing/payment-history-page').then((m) => ({
    default: m.PaymentHistoryPage,
  })),
);
const AdminPaymentsPage = lazy(() =>
  import('../features/admin/admin-payments-page').then((m) => ({ default: m.AdminPaymentsPage })),
);
const DashboardPage = lazy(() =>
  import('../features/dashboard/dashboard-page').then((m) => ({ default: m.DashboardPage })),
);

/** Every tool's page; the type makes a new tool in the catalogue fail to build until it has one. */
const TOOL_PAGES: Record<ToolId, ReactNode> = {
  convert: <ConvertPage />,
  compress: <CompressPage />,
  resize: <ResizePage />,
  removeBackground: <RemoveBackgroundPage />,
  rotate: <RotatePage />,
  upscale: <UpscalePage />,
  htmlToImage: <HtmlToImagePage />,
  convertAudio: <ConvertAudioPage />,
  convertVideo: <ConvertVideoPage />,
  compressAudio: <CompressAudioPage />,
  compressVideo: <CompressVideoPage />,
  crop: <CropPage />,
  watermark: <WatermarkPage />,
  meme: <MemePage />,
  blurFace: <BlurFacePage />,
};

const loaded = (page: ReactNode) => <Suspense fallback={<FullPageSpinner />}>{page}</Suspense>;

const guarded = (access: Access, page: ReactNode) => <Guard access={access}>{loaded(page)}</Guard>;

const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      {
        path: '/login',
        element: <VisitorOnly>{loaded(<LoginPage />)}</VisitorOnly>,
      },
      {
        path: '/signup',
        element: <VisitorOnly>{loaded(<SignupPage />)}</VisitorOnly>,
      },
      {
        path: '/register',
        element: <VisitorOnly>{loaded(<SignupPage />)}</VisitorOnly>,
      },
      { path: '/forgot-password', element: loaded(<ForgotPasswordPage />) },
      { path: '/plans', element: <PlansPage /> },
      ...(Object.keys(LEGAL_DOCUMENTS) as LegalDocument[]).map((document) => ({
        path: LEGAL_DOCUMENTS[document].path,
        element: <LegalPage document={document} />,
      })),
      { path: '/dashboard', element: guarded('user', <DashboardPage />) },
      ...Object.entries(TOOL_PAGES).map(([id, page]) => ({
        path: toolById(id as ToolId).route,
        // Visitors prepare their work here; sending it asks them to sign in first.
        element: guarded('anyone', page),
      })),
      { path: '/admin', element: guarded('admin', <AdminDashboardPage />) },
      { path: '/admin/users', element: guarded('admin', <AdminUsersPage />) },
      { path: '/admin/plans', element: guarded('admin', <AdminPlansPage />) },
      { path: '/admin/payment-history', element: guarded('admin', <AdminPaymentsPage />) },
      { path: '/subscribe', element: guarded('signed-in', <SubscribePage />) },
      {
        path: '/sandbox/checkout/:id',
        element: <SignedInOrCheckoutLink>{loaded(<SandboxCheckoutPage />)}</SignedInOrCheckoutLink>,
      },
      { path: '/payment-history', element: guarded('user', <PaymentHistoryPage />) },
      { path: '/success', element: <PaymentSuccessPage /> },
      { path: '/cancel', element: <PaymentCancelPage /> },
      // Named in the old app's navigation mapping with no screen of its own.
      { path: '/image', element: <Navigate to="/convert" replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * The pages, in a plain BrowserRouter: the app loads no data through the router, and its data
 * router (createBrowserRouter) put about 10 KB of gzip more into the first script.
 */
export const AppRoutes = () => useRoutes(routes);
