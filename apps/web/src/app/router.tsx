import { createBrowserRouter, Navigate } from 'react-router';
import { HomePage } from '../features/home/home-page';
import { plannedRoutes } from '../features/placeholder/planned-routes';
import { AppLayout } from './layout/app-layout';
import { NotFoundPage } from './not-found-page';

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <HomePage /> },
      ...plannedRoutes,
      // Named in the old app's navigation mapping with no screen of its own.
      { path: '/image', element: <Navigate to="/convert" replace /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
]);
