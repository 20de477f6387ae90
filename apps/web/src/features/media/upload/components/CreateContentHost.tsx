import { lazy, Suspense, useEffect } from 'react';
import { useNavigate } from 'react-router';
import { livestreamsStrings } from '../../../livestreams/strings.ts';
import { registerShellCommand } from '../../../shell/lib/shell-commands.ts';
import { useStoriesUi } from '../../../stories/stories-ui-store.ts';
import { storiesStrings } from '../../../stories/strings.ts';
import { mediaStrings } from '../../strings.ts';
import { useUploadUi } from '../upload-ui-store.ts';
import { CreateChooser, type CreateEntry } from './CreateChooser.tsx';

// The upload modal is a lazy screen (spec §2.3): its code loads when it is first opened.
const UploadModal = lazy(() => import('./UploadModal.tsx').then((m) => ({ default: m.UploadModal })));

/** Mounted with the shell: the home view's add button opens the chooser, the chooser the upload. */
export function CreateContentHost() {
  const modal = useUploadUi((s) => s.modal);
  const open = useUploadUi((s) => s.open);
  const close = useUploadUi((s) => s.close);

  useEffect(() => registerShellCommand('home.add', () => open('chooser')), [open]);

  const navigate = useNavigate();

  const entries: CreateEntry[] = [
    { id: 'post', label: mediaStrings.upload.post, onSelect: () => open('post') },
    {
      id: 'story',
      label: storiesStrings.createStory,
      onSelect: () => {
        close();
        useStoriesUi.getState().openEditor();
      },
    },
    {
      id: 'live',
      label: livestreamsStrings.createEntry,
      onSelect: () => {
        close();
        navigate('/live/new');
      },
    },
  ];

  switch (modal) {
    case 'chooser':
      return <CreateChooser entries={entries} onClose={close} />;
    case 'post':
      return (
        <Suspense fallback={null}>
          <UploadModal onClose={close} />
        </Suspense>
      );
    case null:
      return null;
    default: {
      const exhaustive: never = modal;
      return exhaustive;
    }
  }
}
