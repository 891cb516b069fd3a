import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { lazyPage } from '../../lib/lazy-route';

/** Devices and their connection and phone histories: the pages inside an area. */
export const deviceRoutes: RouteObject[] = [
  {
    path: 'devices',
    element: (
      <RequirePermission permission="device.view">
        <Outlet />
      </RequirePermission>
    ),
    children: [
      {
        index: true,
        lazy: lazyPage(() => import('./devices-page').then((m) => m.DevicesPage)),
      },
      {
        path: ':deviceId',
        lazy: lazyPage(() => import('./device-detail-page').then((m) => m.DeviceDetailPage)),
      },
    ],
  },
];
