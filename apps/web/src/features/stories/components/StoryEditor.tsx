import { StoryLimits } from '@kadr/contract/browser';
import { Brush, Crop, ImagePlus, Type as TypeIcon, Undo2 } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import 'react-easy-crop/react-easy-crop.css';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { canvasBlob, cropToCanvas, loadImage } from '../lib/crop-image.ts';
import { useStoryUpload } from '../lib/use-story-upload.ts';
import { useStoriesUi } from '../stories-ui-store.ts';
import { STORY_PALETTE, STORY_UI, storiesStrings as s } from '../strings.ts';
import { type CanvasItem, REFERENCE_WIDTH, StoryCanvas, type StoryCanvasHandle } from './StoryCanvas.tsx';
import styles from './StoryEditor.module.css';

type Picked = { file: File; url: string; kind: 'image' | 'video' };
type Tool = 'crop' | 'text' | 'draw';

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

function Palette({
  value,
  onChange,
  label,
}: {
  value: string;
  onChange: (c: string) => void;
  label: string;
}) {
  return (
    <fieldset className={styles.palette} aria-label={label}>
      {STORY_PALETTE.map((c) => (
        <button
          key={c.value}
          type="button"
          aria-pressed={value === c.value}
          aria-label={s.colour(c.name)}
          className={styles.swatch}
          style={{ background: c.value }}
          onClick={() => onChange(c.value)}
        />
      ))}
    </fieldset>
  );
}

/** The story upload modal with its editor (spec §2.3, §5): crop 9:16, text, drawing, video segment, caption. */
export function StoryEditor() {
  const close = useStoriesUi((st) => st.closeEditor);
  const upload = useStoryUpload();
  const captionId = useId();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const [tool, setTool] = useState<Tool>('crop');
  const [crop, setCrop] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  const [area, setArea] = useState<Area | null>(null);
  const [background, setBackground] = useState<HTMLCanvasElement | null>(null);
  const [items, setItems] = useState<CanvasItem[]>([]);
  const [text, setText] = useState('');
  const [textSize, setTextSize] = useState<number>(STORY_UI.textSize.initial);
  const [textColor, setTextColor] = useState<string>(STORY_PALETTE[0].value);
  const [brushSize, setBrushSize] = useState<number>(STORY_UI.brushSize.initial);
  const [brushColor, setBrushColor] = useState<string>(STORY_PALETTE[2].value);
  const [videoLength, setVideoLength] = useState(0);
  const [start, setStart] = useState(0);
  const [duration, setDuration] = useState<number>(StoryLimits.defaultDurationS);
  const [caption, setCaption] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const canvas = useRef<StoryCanvasHandle>(null);
  const video = useRef<HTMLVideoElement>(null);
  const stageBox = useRef<HTMLDivElement>(null);
  const [box, setBox] = useState({ width: 270, height: 480 });

  const pickedUrl = picked?.url;
  useEffect(() => () => (pickedUrl ? URL.revokeObjectURL(pickedUrl) : undefined), [pickedUrl]);

  // The preview keeps 9:16 inside the space the modal gives it (measured again for each picked file).
  // biome-ignore lint/correctness/useExhaustiveDependencies: the box element appears once a file is picked.
  useEffect(() => {
    const el = stageBox.current;
    if (!el) return;
    const fit = () => {
      // Inside the box's 8 px padding.
      const h = Math.max(160, Math.min(el.clientHeight - 16, ((el.clientWidth - 16) * 16) / 9));
      setBox({ width: Math.round((h * 9) / 16), height: Math.round(h) });
    };
    fit();
    const ro = new ResizeObserver(fit);
    ro.observe(el);
    return () => ro.disconnect();
  }, [picked]);

  // Entering text or drawing bakes the crop into the picture Konva edits.
  const chooseTool = async (next: Tool) => {
    if (next !== 'crop' && picked?.kind === 'image' && area) {
      const img = await loadImage(picked.url);
      setBackground(cropToCanvas(img, area));
    }
    setTool(next);
  };

  const onPick = (file: File | undefined) => {
    if (!file) return;
    const kind = file.type.startsWith('image/') ? 'image' : file.type.startsWith('video/') ? 'video' : null;
    if (!kind) {
      setPickError(s.wrongType);
      return;
    }
    setPickError(null);
    setPicked({ file, url: URL.createObjectURL(file), kind });
    setTool('crop');
    setItems([]);
    setBackground(null);
    setZoom(1);
    setCrop({ x: 0, y: 0 });
  };

  const segmentMax = useMemo(
    () =>
      clamp(
        Math.floor(videoLength - start) || StoryLimits.maxDurationS,
        StoryLimits.minDurationS,
        StoryLimits.maxDurationS,
      ),
    [videoLength, start],
  );

  // The preview loops inside the chosen segment.
  useEffect(() => {
    const v = video.current;
    if (!v) return;
    v.currentTime = start;
    const onTime = () => {
      if (v.currentTime >= start + duration || v.currentTime < start) v.currentTime = start;
    };
    v.addEventListener('timeupdate', onTime);
    return () => v.removeEventListener('timeupdate', onTime);
  }, [start, duration]);

  const publish = async () => {
    if (!picked) return;
    setBusy(true);
    setError(null);
    try {
      if (picked.kind === 'video') {
        await upload(
          {
            file: picked.file,
            fileName: picked.file.name,
            mediaType: 'video',
            caption,
            start,
            duration: clamp(duration, StoryLimits.minDurationS, StoryLimits.maxDurationS),
          },
          null,
        );
      } else {
        if (!area) throw new Error('no crop');
        const edited = items.length > 0;
        // §9: JPEG at 0.95 for a crop alone, PNG once texts or drawings are added.
        const blob =
          edited && canvas.current
            ? await canvas.current.toBlob()
            : await canvasBlob(
                cropToCanvas(await loadImage(picked.url), area),
                'image/jpeg',
                STORY_UI.imageQuality,
              );
        await upload(
          { file: blob, fileName: edited ? 'story.png' : 'story.jpg', mediaType: 'photo', caption },
          URL.createObjectURL(blob),
        );
      }
      close();
    } catch (e) {
      console.error('Story upload failed', e);
      setError(s.uploadFailed);
      setBusy(false);
    }
  };

  const addText = () => {
    const value = text.trim();
    if (!value) return;
    const height = (REFERENCE_WIDTH * 16) / 9;
    setItems([
      ...items,
      {
        kind: 'text',
        id: `t${Date.now()}`,
        text: value,
        x: REFERENCE_WIDTH / 2 - (value.length * textSize) / 4,
        y: height / 2 - textSize / 2,
        size: textSize,
        color: textColor,
      },
    ]);
    setText('');
  };

  const captionLength = [...caption].length;

  return (
    <Sheet
      title={s.editorTitle}
      onClose={close}
      locked={busy}
      className={styles.modal}
      bodyClassName={styles.sheetBody}
      layerClassName={styles.layer}
      testId="story-editor"
    >
      {!picked ? (
        <label className={styles.picker}>
          <ImagePlus size={40} aria-hidden="true" />
          <span className={styles.pickTitle}>{s.pickFile}</span>
          <span className={styles.muted}>{s.pickHint}</span>
          <input
            type="file"
            accept="image/*,video/*"
            className="visually-hidden"
            onChange={(e) => onPick(e.target.files?.[0])}
            data-testid="story-file"
          />
          {pickError ? (
            <span className={styles.error} role="alert">
              {pickError}
            </span>
          ) : null}
        </label>
      ) : (
        <div className={styles.body}>
          <div className={styles.stageBox} ref={stageBox}>
            <div className={styles.stage} style={{ width: box.width, height: box.height }}>
              {picked.kind === 'video' ? (
                <video
                  ref={video}
                  className={styles.video}
                  src={picked.url}
                  muted
                  autoPlay
                  playsInline
                  onLoadedMetadata={(e) => {
                    const length = e.currentTarget.duration;
                    setVideoLength(Number.isFinite(length) ? length : 0);
                    setDuration(
                      clamp(Math.min(StoryLimits.defaultDurationS, Math.floor(length) || 15), 1, 120),
                    );
                  }}
                />
              ) : tool === 'crop' || !background ? (
                <Cropper
                  image={picked.url}
                  crop={crop}
                  zoom={zoom}
                  maxZoom={5}
                  aspect={9 / 16}
                  objectFit="cover"
                  onCropChange={setCrop}
                  onZoomChange={setZoom}
                  onCropComplete={(_, pixels) => setArea(pixels)}
                  zoomWithScroll
                />
              ) : (
                <StoryCanvas
                  ref={canvas}
                  background={background}
                  width={box.width}
                  height={box.height}
                  items={items}
                  onItemsChange={setItems}
                  tool={tool === 'draw' ? 'draw' : 'text'}
                  brush={{ size: brushSize, color: brushColor }}
                />
              )}
            </div>
          </div>

          <div className={styles.controls}>
            {picked.kind === 'image' ? (
              <>
                <div className={styles.tools} role="tablist" aria-label={s.editorTitle}>
                  {(
                    [
                      ['crop', s.crop, Crop],
                      ['text', s.text, TypeIcon],
                      ['draw', s.draw, Brush],
                    ] as const
                  ).map(([id, label, Icon]) => (
                    <button
                      key={id}
                      type="button"
                      role="tab"
                      aria-selected={tool === id}
                      className={styles.tool}
                      onClick={() => void chooseTool(id)}
                      disabled={busy}
                    >
                      <Icon size={18} aria-hidden="true" />
                      {label}
                    </button>
                  ))}
                  <button
                    type="button"
                    className={styles.tool}
                    onClick={() => setItems(items.slice(0, -1))}
                    disabled={items.length === 0 || busy}
                    aria-label={s.undo}
                  >
                    <Undo2 size={18} aria-hidden="true" />
                  </button>
                </div>
                {tool === 'crop' ? (
                  <label className={styles.range}>
                    {s.zoom}
                    <input
                      type="range"
                      min={1}
                      max={5}
                      step={0.01}
                      value={zoom}
                      onChange={(e) => setZoom(Number(e.target.value))}
                    />
                  </label>
                ) : tool === 'text' ? (
                  <>
                    <div className={styles.row}>
                      <input
                        className={styles.input}
                        value={text}
                        onChange={(e) => setText(e.target.value)}
                        onKeyDown={(e) => {
                          if (e.key === 'Enter') {
                            e.preventDefault();
                            addText();
                          }
                        }}
                        placeholder={s.textPlaceholder}
                        aria-label={s.textPlaceholder}
                        maxLength={120}
                      />
                      <button
                        type="button"
                        className={styles.secondary}
                        onClick={addText}
                        disabled={!text.trim()}
                      >
                        {s.addText}
                      </button>
                    </div>
                    <label className={styles.range}>
                      {s.textSize}: {textSize}
                      <input
                        type="range"
                        min={STORY_UI.textSize.min}
                        max={STORY_UI.textSize.max}
                        value={textSize}
                        onChange={(e) => setTextSize(Number(e.target.value))}
                      />
                    </label>
                    <Palette value={textColor} onChange={setTextColor} label={s.text} />
                  </>
                ) : (
                  <>
                    <label className={styles.range}>
                      {s.brushSize}: {brushSize}
                      <input
                        type="range"
                        min={STORY_UI.brushSize.min}
                        max={STORY_UI.brushSize.max}
                        value={brushSize}
                        onChange={(e) => setBrushSize(Number(e.target.value))}
                      />
                    </label>
                    <Palette value={brushColor} onChange={setBrushColor} label={s.draw} />
                  </>
                )}
              </>
            ) : (
              <>
                <label className={styles.range}>
                  {s.segmentStart}: {start.toFixed(1)}
                  <input
                    type="range"
                    min={0}
                    max={Math.max(0, videoLength - 1)}
                    step={0.1}
                    value={start}
                    onChange={(e) => {
                      const v = Number(e.target.value);
                      setStart(v);
                      setDuration((d) => clamp(Math.min(d, Math.floor(videoLength - v) || 1), 1, 120));
                    }}
                  />
                </label>
                <label className={styles.range}>
                  {s.segmentDuration}: {duration}
                  <input
                    type="range"
                    min={StoryLimits.minDurationS}
                    max={segmentMax}
                    step={1}
                    value={duration}
                    onChange={(e) => setDuration(Number(e.target.value))}
                  />
                </label>
                {videoLength > 0 ? (
                  <div className={styles.segment} data-testid="story-segment">
                    <div className={styles.segmentBar} aria-hidden="true">
                      <span
                        style={{
                          left: `${(start / videoLength) * 100}%`,
                          width: `${(Math.min(duration, videoLength - start) / videoLength) * 100}%`,
                        }}
                      />
                    </div>
                    <span>{s.segmentRange(start, Math.min(start + duration, videoLength), videoLength)}</span>
                  </div>
                ) : null}
              </>
            )}

            <div className={styles.label}>
              <label htmlFor={captionId}>{s.caption}</label>
              <span className={styles.counter} aria-live="polite">
                {s.counter(captionLength, StoryLimits.caption)}
              </span>
            </div>
            <textarea
              id={captionId}
              className={styles.caption}
              value={caption}
              onChange={(e) => setCaption([...e.target.value].slice(0, StoryLimits.caption).join(''))}
              placeholder={s.captionPlaceholder}
              rows={2}
              disabled={busy}
            />
            {error ? (
              <p className={styles.error} role="alert">
                {error}
              </p>
            ) : null}
            <div className={styles.actions}>
              <button
                type="button"
                className={styles.secondary}
                onClick={() => setPicked(null)}
                disabled={busy}
              >
                {s.back}
              </button>
              <button
                type="button"
                className={styles.primary}
                onClick={publish}
                disabled={busy || (picked.kind === 'image' && !area)}
              >
                {s.publish}
              </button>
            </div>
          </div>
        </div>
      )}
    </Sheet>
  );
}
