// The console's icons live in one set (shell/icons.tsx); this module names the ones this feature uses.
export { BuildingIcon, RequestIcon, UploadIcon, SortIcon } from '../shell/icons';
