import { createBrowserRouter, Navigate } from 'react-router';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { LoginPage } from '../features/auth/login-page';
import { SignupPage } from '../features/auth/signup-page';
import { HomePage } from '../features/home/home-page';
import { plannedRoutes } from '../features/placeholder/planned-routes';
import { Guard, VisitorOnly } from './guards';
import { AppLayout } from './layout/app-layout';
import { NotFoundPage } from './not-found-page';

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      {
        path: '/login',
        element: (
          <VisitorOnly>
            <LoginPage />
          </VisitorOnly>
        ),
      },
      {
        path: '/signup',
        element: (
          <VisitorOnly>
            <SignupPage />
          </VisitorOnly>
        ),
      },
      {
        path: '/register',
        element: (
          <VisitorOnly>
            <SignupPage />
          </VisitorOnly>
        ),
      },
      { path: '/forgot-password', element: <ForgotPasswordPage /> },
      ...plannedRoutes.map(({ path, access, element }) => ({
        path,
        element: access === 'public' ? element : <Guard access={access}>{element}</Guard>,
      })),
      // Named in the old app's navigation mapping with no screen of its own.
      { path: '/image', element: <Navigate to="/convert" replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
