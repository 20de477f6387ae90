import type Konva from 'konva';
import { forwardRef, useImperativeHandle, useRef, useState } from 'react';
import { Image as KonvaImage, Layer, Line, Stage, Text } from 'react-konva';

export interface TextItem {
  kind: 'text';
  id: string;
  text: string;
  x: number;
  y: number;
  size: number;
  color: string;
}

export interface LineItem {
  kind: 'line';
  id: string;
  points: number[];
  size: number;
  color: string;
}

export type CanvasItem = TextItem | LineItem;

export interface StoryCanvasHandle {
  /** The picture with its texts and drawings at the output size, as PNG. */
  toBlob(): Promise<Blob>;
}

interface Props {
  /** The picture edited; null over a video, whose texts the server draws (the stage stays transparent). */
  background: HTMLCanvasElement | null;
  width: number;
  height: number;
  items: CanvasItem[];
  onItemsChange: (items: CanvasItem[]) => void;
  tool: 'text' | 'draw' | null;
  brush: { size: number; color: string };
}

/** Sizes are given for a 540 px wide picture (text 20–140, brush 4–40) and scaled to what is shown. */
export const REFERENCE_WIDTH = 540;

/** The font the server burns a video's texts in (DejaVu Sans Bold), so the preview matches the story. */
export const TEXT_FONT = "'DejaVu Sans', Arial, sans-serif";

/** How wide `text` is drawn at `size` (the canvas's measure; an estimate where there is no 2D canvas). */
export function textWidth(text: string, size: number): number {
  const ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!ctx) return text.length * size * 0.62;
  ctx.font = `bold ${size}px ${TEXT_FONT}`;
  return ctx.measureText(text).width;
}

/** The editing surface: Konva does the hit-testing, dragging and export. */
export const StoryCanvas = forwardRef<StoryCanvasHandle, Props>(function StoryCanvas(
  { background, width, height, items, onItemsChange, tool, brush },
  ref,
) {
  const stage = useRef<Konva.Stage>(null);
  const [drawing, setDrawing] = useState<LineItem | null>(null);
  const scale = width / REFERENCE_WIDTH;

  useImperativeHandle(ref, () => ({
    toBlob() {
      const node = stage.current;
      if (!node) return Promise.reject(new Error('no stage'));
      return new Promise<Blob>((resolve, reject) =>
        node.toBlob({
          mimeType: 'image/png',
          pixelRatio: (background?.width ?? width) / width,
          callback: (blob) => (blob ? resolve(blob) : reject(new Error('export failed'))),
        }),
      );
    },
  }));

  const point = () => {
    const p = stage.current?.getPointerPosition();
    return p ? [p.x / scale, p.y / scale] : null;
  };

  return (
    <Stage
      ref={stage}
      width={width}
      height={height}
      style={{ touchAction: 'none', cursor: tool === 'draw' ? 'crosshair' : 'default' }}
      onPointerDown={() => {
        if (tool !== 'draw') return;
        const p = point();
        if (p)
          setDrawing({
            kind: 'line',
            id: `l${Date.now()}`,
            points: [...p, ...p],
            size: brush.size,
            color: brush.color,
          });
      }}
      onPointerMove={() => {
        if (!drawing) return;
        const p = point();
        if (p) setDrawing({ ...drawing, points: [...drawing.points, ...p] });
      }}
      onPointerUp={() => {
        if (drawing) onItemsChange([...items, drawing]);
        setDrawing(null);
      }}
      onPointerLeave={() => {
        if (drawing) onItemsChange([...items, drawing]);
        setDrawing(null);
      }}
    >
      {background ? (
        <Layer>
          <KonvaImage image={background} width={width} height={height} listening={false} />
        </Layer>
      ) : null}
      <Layer scaleX={scale} scaleY={scale}>
        {[...items, ...(drawing ? [drawing] : [])].map((item) =>
          item.kind === 'line' ? (
            <Line
              key={item.id}
              points={item.points}
              stroke={item.color}
              strokeWidth={item.size}
              lineCap="round"
              lineJoin="round"
              tension={0.4}
              listening={false}
            />
          ) : (
            <Text
              key={item.id}
              text={item.text}
              x={item.x}
              y={item.y}
              fontSize={item.size}
              fontStyle="bold"
              fontFamily={TEXT_FONT}
              fill={item.color}
              shadowColor="#000"
              shadowBlur={6}
              shadowOpacity={0.5}
              draggable={tool !== 'draw'}
              onDragEnd={(e) =>
                onItemsChange(
                  items.map((it) => (it.id === item.id ? { ...item, x: e.target.x(), y: e.target.y() } : it)),
                )
              }
            />
          ),
        )}
      </Layer>
    </Stage>
  );
});
