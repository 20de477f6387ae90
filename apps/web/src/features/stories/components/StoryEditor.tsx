import { StoryLimits, type StoryText, StoryTextLimits } from '@kadr/contract/browser';
import { Brush, Crop, ImagePlus, Type as TypeIcon, Undo2 } from 'lucide-react';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import Cropper, { type Area } from 'react-easy-crop';
import 'react-easy-crop/react-easy-crop.css';
import { Sheet } from '../../../shared/ui/Sheet.tsx';
import { canvasBlob, cropToCanvas, loadImage } from '../lib/crop-image.ts';
import { useStoryUpload } from '../lib/use-story-upload.ts';
import { useStoriesUi } from '../stories-ui-store.ts';
import { STORY_PALETTE, STORY_UI, storiesStrings as s } from '../strings.ts';
import {
  type CanvasItem,
  REFERENCE_WIDTH,
  StoryCanvas,
  type StoryCanvasHandle,
  textWidth,
} from './StoryCanvas.tsx';
import styles from './StoryEditor.module.css';

type Picked = { file: File; url: string; kind: 'image' | 'video' };
type Tool = 'crop' | 'text' | 'draw';

const clamp = (n: number, min: number, max: number) => Math.min(max, Math.max(min, n));

/** A labelled slider of the editor's tools (text size, brush, zoom, the video segment). */
function RangeControl({
  label,
  value,
  min,
  max,
  step,
  onChange,
}: {
  label: string;
  value: number;
  min: number;
  max: number;
  step?: number;
  onChange: (value: number) => void;
}) {
  return (
    <label className={styles.range}>
      {label}
      <input
        type="range"
        min={min}
        max={max}
        step={step}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
      />
    </label>
  );
}

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

interface TextControlsProps {
  text: string;
  onText: (value: string) => void;
  onAdd: () => void;
  size: number;
  onSize: (size: number) => void;
  color: string;
  onColor: (color: string) => void;
  /** No more texts may be added (a video takes `StoryTextLimits.maxTexts`). */
  full: boolean;
}

/** Typing a text to place, its size and colour: the same for a photo and a video story. */
function TextControls({ text, onText, onAdd, size, onSize, color, onColor, full }: TextControlsProps) {
  return (
    <>
      <div className={styles.row}>
        <input
          className={styles.input}
          value={text}
          onChange={(e) => onText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              onAdd();
            }
          }}
          placeholder={s.textPlaceholder}
          aria-label={s.textPlaceholder}
          maxLength={StoryTextLimits.maxLength}
        />
        <button type="button" className={styles.secondary} onClick={onAdd} disabled={!text.trim() || full}>
          {s.addText}
        </button>
      </div>
      <RangeControl
        label={`${s.textSize}: ${size}`}
        value={size}
        min={STORY_UI.textSize.min}
        max={STORY_UI.textSize.max}
        onChange={onSize}
      />
      <Palette value={color} onChange={onColor} label={s.text} />
    </>
  );
}

/** The texts placed on a video, as the upload sends them (the editor's 540 px frame, like the photo canvas). */
export function videoTexts(items: CanvasItem[]): StoryText[] {
  return items.flatMap((item) =>
    item.kind === 'text'
      ? [{ text: item.text, x: item.x, y: item.y, size: item.size, color: item.color }]
      : [],
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
            texts: videoTexts(items),
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

  const textsFull = picked?.kind === 'video' && videoTexts(items).length >= StoryTextLimits.maxTexts;
  const addText = () => {
    const value = text.trim();
    if (!value || textsFull) return;
    const height = (REFERENCE_WIDTH * 16) / 9;
    setItems([
      ...items,
      {
        kind: 'text',
        id: `t${Date.now()}`,
        text: value,
        // Centred on the frame (a line wider than the frame starts at its left edge).
        x: Math.max(0, (REFERENCE_WIDTH - textWidth(value, textSize)) / 2),
        y: height / 2 - textSize / 2,
        size: textSize,
        color: textColor,
      },
    ]);
    setText('');
  };

  const captionLength = [...caption].length;
  const textControls: TextControlsProps = {
    text,
    onText: setText,
    onAdd: addText,
    size: textSize,
    onSize: setTextSize,
    color: textColor,
    onColor: setTextColor,
    full: textsFull,
  };

  /** Takes back the last text or stroke: the same control in the photo and the video editor. */
  const undoButton = (
    <button
      type="button"
      className={styles.tool}
      onClick={() => setItems(items.slice(0, -1))}
      disabled={items.length === 0 || busy}
      aria-label={s.undo}
    >
      <Undo2 size={18} aria-hidden="true" />
    </button>
  );

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
                <>
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
                  {/* The texts are dragged on a transparent stage over the playing video. */}
                  <div className={styles.overlay} data-testid="story-video-texts">
                    <StoryCanvas
                      background={null}
                      width={box.width}
                      height={box.height}
                      items={items}
                      onItemsChange={setItems}
                      tool="text"
                      brush={{ size: brushSize, color: brushColor }}
                    />
                  </div>
                </>
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
                  {undoButton}
                </div>
                {tool === 'crop' ? (
                  <RangeControl label={s.zoom} value={zoom} min={1} max={5} step={0.01} onChange={setZoom} />
                ) : tool === 'text' ? (
                  <TextControls {...textControls} />
                ) : (
                  <>
                    <RangeControl
                      label={`${s.brushSize}: ${brushSize}`}
                      value={brushSize}
                      min={STORY_UI.brushSize.min}
                      max={STORY_UI.brushSize.max}
                      onChange={setBrushSize}
                    />
                    <Palette value={brushColor} onChange={setBrushColor} label={s.draw} />
                  </>
                )}
              </>
            ) : (
              <>
                <div className={styles.tools}>
                  <span className={styles.toolLabel}>
                    <TypeIcon size={18} aria-hidden="true" />
                    {s.text}
                  </span>
                  {undoButton}
                </div>
                <TextControls {...textControls} />
                <RangeControl
                  label={`${s.segmentStart}: ${start.toFixed(1)}`}
                  value={start}
                  min={0}
                  max={Math.max(0, videoLength - 1)}
                  step={0.1}
                  onChange={(v) => {
                    setStart(v);
                    setDuration((d) => clamp(Math.min(d, Math.floor(videoLength - v) || 1), 1, 120));
                  }}
                />
                <RangeControl
                  label={`${s.segmentDuration}: ${duration}`}
                  value={duration}
                  min={StoryLimits.minDurationS}
                  max={segmentMax}
                  step={1}
                  onChange={setDuration}
                />
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
