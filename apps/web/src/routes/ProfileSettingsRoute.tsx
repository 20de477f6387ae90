import { SettingsScreen } from '../features/settings/components/SettingsScreen.tsx';

/** `/settings/profile` and `/settings` (lazy): the whole settings screen. */
export default function ProfileSettingsRoute() {
  return <SettingsScreen />;
}
