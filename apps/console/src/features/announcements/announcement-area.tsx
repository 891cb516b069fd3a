import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { RequirePermission } from '../shell/permissions';
import { LoadingState } from '../shell/query-states';

/*
 * The announcement pages, each its own chunk, behind one lazy route of the area (routes.tsx): the
 * first screen's route table carries one entry for all of them.
 */
const AnnouncementsPage = lazy(() => import('./announcements-page').then((module) => ({ default: module.AnnouncementsPage })));
const AnnouncementComposePage = lazy(() =>
  import('./announcement-compose-page').then((module) => ({ default: module.AnnouncementComposePage })),
);
const AnnouncementManagePage = lazy(() =>
  import('./announcement-manage-page').then((module) => ({ default: module.AnnouncementManagePage })),
);
const AnnouncementViewPage = lazy(() => import('./announcement-view-page').then((module) => ({ default: module.AnnouncementViewPage })));

const forAuthors = (page: React.ReactNode) => <RequirePermission permission="notification.announce">{page}</RequirePermission>;

/**
 * `announcements` (list), `announcements/new` (compose) and `announcements/<id>/edit` for those
 * who hold notification.announce; `announcements/<id>`, where a recipient's notice leads, for all.
 */
export function AnnouncementArea() {
  return (
    <Suspense fallback={<LoadingState />}>
      <Routes>
        <Route index element={forAuthors(<AnnouncementsPage />)} />
        <Route path="new" element={forAuthors(<AnnouncementComposePage />)} />
        <Route path=":id/edit" element={forAuthors(<AnnouncementManagePage />)} />
        <Route path=":id" element={<AnnouncementViewPage />} />
      </Routes>
    </Suspense>
  );
}
