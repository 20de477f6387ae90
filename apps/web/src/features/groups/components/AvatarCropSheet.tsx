import { groupsEndpoints } from '@kadr/contract/groups/endpoints';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import 'react-easy-crop/react-easy-crop.css';
import { api, errorMessage } from '../../../shared/api/client.ts';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { messengerKeys } from '../../messenger/api/messenger-keys.ts';
import { loadImage } from '../../stories/lib/crop-image.ts';
import { groupsKeys } from '../api/groups-api.ts';
import { cropSquare } from '../lib/square-crop.ts';
import { groupsStrings as S } from '../strings.ts';
import g from './groups.module.css';

interface Props {
  groupId: number;
  file: File;
  onClose: () => void;
}

/** Square crop of the picked photo with zoom, a round preview as members will see it, and upload. */
export function AvatarCropSheet({ groupId, file, onClose }: Props) {
  const queryClient = useQueryClient();
  const url = useMemo(() => URL.createObjectURL(file), [file]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [preview, setPreview] = useState<string | null>(null);

  // The preview is the exact square that will be uploaded, redrawn when the chosen area settles.
  useEffect(() => {
    if (!area) return;
    let alive = true;
    let made: string | null = null;
    void loadImage(url)
      .then((img) => cropSquare(img, area, 160))
      .then((blob) => {
        if (!alive) return;
        made = URL.createObjectURL(blob);
        setPreview(made);
      })
      .catch(() => undefined);
    return () => {
      alive = false;
      if (made) URL.revokeObjectURL(made);
    };
  }, [area, url]);

  const save = useMutation({
    mutationFn: async () => {
      if (!area) throw new Error(S.photoUnreadable);
      const blob = await cropSquare(await loadImage(url), area);
      const form = new FormData();
      form.append('file', new File([blob], 'group-avatar.jpg', { type: 'image/jpeg' }));
      return api.call(groupsEndpoints.avatar, { params: { id: groupId }, form });
    },
    onSuccess: (group) => {
      queryClient.setQueryData(groupsKeys.group(groupId), group);
      void queryClient.invalidateQueries({ queryKey: messengerKeys.chats() });
      onClose();
    },
  });

  return (
    <Sheet title={S.cropPhoto} onClose={onClose} centered locked={save.isPending}>
      <div className={g.cropArea} data-testid="avatar-crop">
        <Cropper
          image={url}
          crop={crop}
          zoom={zoom}
          maxZoom={5}
          aspect={1}
          cropShape="round"
          showGrid={false}
          objectFit="cover"
          onCropChange={setCrop}
          onZoomChange={setZoom}
          onCropComplete={(_, pixels) => setArea(pixels)}
          zoomWithScroll
        />
      </div>
      <label className={g.zoom}>
        {S.zoom}
        <input
          type="range"
          min={1}
          max={5}
          step={0.05}
          value={zoom}
          onChange={(event) => setZoom(Number(event.currentTarget.value))}
        />
      </label>
      <div className={g.cropPreview}>
        {preview ? (
          <img src={preview} alt={S.preview} width={64} height={64} data-testid="avatar-preview" />
        ) : (
          <span className={g.previewEmpty} />
        )}
        <span className={g.muted}>{S.preview}</span>
      </div>
      {save.isError ? (
        <p className={g.error} role="alert">
          {S.photoFailed}
          {errorMessage(save.error)}
        </p>
      ) : null}
      <div className={g.row}>
        <button type="button" className={g.secondary} onClick={onClose} disabled={save.isPending}>
          {S.cancel}
        </button>
        <button
          type="button"
          className={g.primary}
          disabled={!area || save.isPending}
          onClick={() => save.mutate()}
        >
          {save.isPending ? S.saving : S.save}
        </button>
      </div>
    </Sheet>
  );
}
