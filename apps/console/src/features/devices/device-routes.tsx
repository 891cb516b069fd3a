import { Outlet, type RouteObject } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { DeviceDetailPage } from './device-detail-page';
import { DevicesPage } from './devices-page';

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
      { index: true, element: <DevicesPage /> },
      { path: ':deviceId', element: <DeviceDetailPage /> },
    ],
  },
];
