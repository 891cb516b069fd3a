// The console's icons live in one set (shell/icons.tsx); this module names the ones this feature uses.
export { LayersIcon, ChevronRightIcon, ChevronDownIcon, BuildingIcon, UsersIcon, TreeIcon, DotsIcon, UploadIcon } from '../shell/icons';
