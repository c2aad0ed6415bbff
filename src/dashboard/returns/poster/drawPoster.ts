/**
 * The profit poster drawn on a canvas in the browser: the figures, the
 * cumulative-profit curve, the invite code and its QR code, as a PNG. This
 * module and `qrcode` load on the first "share" click, never with the page.
 */
import { toCanvas } from 'qrcode';
import type { Trend } from '../../../api/format';
import type { ReturnsPoint } from '../../../api/returns';
import { curveBars } from '../curveData';

export interface PosterTexts {
  brand: string;
  tagline: string;
  title: string;
  /** The big figure's caption and value ("ROI", "+12.34%"), and the second one's. */
  mainLabel: string;
  main: string;
  secondLabel: string;
  second: string;
  /** Small lines under the figures (run time, cycles...). */
  lines: string[];
  /** The curve's caption. */
  curve: string;
  inviteLabel: string;
  inviteCode: string;
  scan: string;
  date: string;
}

export interface PosterInput {
  texts: PosterTexts;
  /** Whether the main figure is up, down or flat: its colour (the curve takes the trend of its own last point). */
  trend: Trend;
  /** The colours of up and down under the user's 红涨绿跌 / 绿涨红跌 setting (src/api/colors.ts). */
  colors: { up: string; down: string };
  points: readonly ReturnsPoint[];
  /** The task's start: the curve begins at zero there. */
  origin?: string | null;
  /** The register link with the invite code, in the QR code. */
  link: string;
}

export const POSTER_WIDTH = 750;
export const POSTER_HEIGHT = 1334;
const FLAT = '#ffffff';
const FONT = '"PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", system-ui, sans-serif';

/** The colour of a trend on the poster: the user's up or down colour, white when flat. */
export const posterColor = (trend: Trend, colors: PosterInput['colors']) => (trend === 'up' ? colors.up : trend === 'down' ? colors.down : FLAT);

/** The text cut with an ellipsis to fit a width. */
const fit = (ctx: CanvasRenderingContext2D, text: string, width: number) => {
  if (ctx.measureText(text).width <= width) return text;
  let cut = text;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut}…`;
};

const roundRect = (ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) => {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
};

/** The curve in a box: a line with a soft fill down to the zero line. */
const drawCurve = (ctx: CanvasRenderingContext2D, input: PosterInput, box: { x: number; y: number; w: number; h: number }) => {
  const bars = curveBars(input.points, input.origin);
  if (bars.length === 0) return;
  const last = bars[bars.length - 1]!.value;
  const color = posterColor(last > 0 ? 'up' : last < 0 ? 'down' : 'flat', input.colors);
  const values = bars.map((b) => b.value);
  const min = Math.min(0, ...values);
  const max = Math.max(0, ...values);
  const span = max - min || 1;
  const first = bars[0]!.time;
  const width = bars[bars.length - 1]!.time - first || 1;
  const x = (time: number) => (bars.length === 1 ? box.x + box.w : box.x + ((time - first) / width) * box.w);
  const y = (value: number) => box.y + box.h - ((value - min) / span) * box.h;
  // The zero line.
  ctx.strokeStyle = 'rgba(255,255,255,0.25)';
  ctx.setLineDash([6, 6]);
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(box.x, y(0));
  ctx.lineTo(box.x + box.w, y(0));
  ctx.stroke();
  ctx.setLineDash([]);
  // Fill, then the line over it.
  const gradient = ctx.createLinearGradient(0, box.y, 0, box.y + box.h);
  gradient.addColorStop(0, `${color}66`);
  gradient.addColorStop(1, `${color}00`);
  ctx.beginPath();
  ctx.moveTo(x(bars[0]!.time), y(0));
  for (const bar of bars) ctx.lineTo(x(bar.time), y(bar.value));
  ctx.lineTo(x(bars[bars.length - 1]!.time), y(0));
  ctx.closePath();
  ctx.fillStyle = gradient;
  ctx.fill();
  ctx.beginPath();
  bars.forEach((bar, i) => (i === 0 ? ctx.moveTo(x(bar.time), y(bar.value)) : ctx.lineTo(x(bar.time), y(bar.value))));
  ctx.strokeStyle = color;
  ctx.lineWidth = 5;
  ctx.lineJoin = 'round';
  ctx.stroke();
};

/** Draws the poster on a new canvas. */
export const drawPoster = async (input: PosterInput): Promise<HTMLCanvasElement> => {
  const canvas = document.createElement('canvas');
  canvas.width = POSTER_WIDTH;
  canvas.height = POSTER_HEIGHT;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('canvas 2d is not available');
  const { texts } = input;
  const color = posterColor(input.trend, input.colors);
  const pad = 56;
  const inner = POSTER_WIDTH - pad * 2;

  const background = ctx.createLinearGradient(0, 0, POSTER_WIDTH, POSTER_HEIGHT);
  background.addColorStop(0, '#0b1a3a');
  background.addColorStop(1, '#14264f');
  ctx.fillStyle = background;
  ctx.fillRect(0, 0, POSTER_WIDTH, POSTER_HEIGHT);

  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = '#ffffff';
  ctx.font = `700 40px ${FONT}`;
  ctx.fillText(fit(ctx, texts.brand, inner), pad, 104);
  ctx.fillStyle = 'rgba(255,255,255,0.65)';
  ctx.font = `400 26px ${FONT}`;
  ctx.fillText(fit(ctx, texts.tagline, inner), pad, 146);

  ctx.fillStyle = '#ffffff';
  ctx.font = `600 36px ${FONT}`;
  ctx.fillText(fit(ctx, texts.title, inner), pad, 238);

  ctx.fillStyle = 'rgba(255,255,255,0.65)';
  ctx.font = `400 28px ${FONT}`;
  ctx.fillText(fit(ctx, texts.mainLabel, inner), pad, 300);
  ctx.fillStyle = color;
  ctx.font = `800 96px ${FONT}`;
  ctx.fillText(fit(ctx, texts.main, inner), pad, 400);

  ctx.fillStyle = 'rgba(255,255,255,0.65)';
  ctx.font = `400 28px ${FONT}`;
  ctx.fillText(fit(ctx, texts.secondLabel, inner / 2), pad, 470);
  ctx.fillStyle = '#ffffff';
  ctx.font = `700 40px ${FONT}`;
  ctx.fillText(fit(ctx, texts.second, inner), pad, 520);

  ctx.fillStyle = 'rgba(255,255,255,0.75)';
  ctx.font = `400 26px ${FONT}`;
  texts.lines.slice(0, 2).forEach((line, i) => ctx.fillText(fit(ctx, line, inner), pad, 572 + i * 38));

  if (input.points.length > 0) {
    ctx.fillStyle = 'rgba(255,255,255,0.65)';
    ctx.font = `400 24px ${FONT}`;
    ctx.fillText(fit(ctx, texts.curve, inner), pad, 680);
  }
  drawCurve(ctx, input, { x: pad, y: 700, w: inner, h: 280 });

  // The invite card: the QR code on the left, the code and the call on the right.
  const cardY = 1030;
  const cardH = 250;
  ctx.fillStyle = '#ffffff';
  roundRect(ctx, pad, cardY, inner, cardH, 20);
  ctx.fill();
  const qrSize = 206;
  const qr = document.createElement('canvas');
  await toCanvas(qr, input.link, { width: qrSize, margin: 1, errorCorrectionLevel: 'M' });
  ctx.drawImage(qr, pad + 22, cardY + 22, qrSize, qrSize);
  const textX = pad + 22 + qrSize + 28;
  const textW = inner - (textX - pad) - 22;
  ctx.fillStyle = '#5f6b7a';
  ctx.font = `400 26px ${FONT}`;
  ctx.fillText(fit(ctx, texts.inviteLabel, textW), textX, cardY + 70);
  ctx.fillStyle = '#0b1a3a';
  ctx.font = `800 48px ${FONT}`;
  ctx.fillText(fit(ctx, texts.inviteCode, textW), textX, cardY + 130);
  ctx.fillStyle = '#33404f';
  ctx.font = `400 24px ${FONT}`;
  ctx.fillText(fit(ctx, texts.scan, textW), textX, cardY + 180);
  ctx.fillStyle = '#8a94a3';
  ctx.font = `400 22px ${FONT}`;
  ctx.fillText(fit(ctx, texts.date, textW), textX, cardY + 220);
  return canvas;
};

/** The canvas as a PNG blob. */
export const posterPng = (canvas: HTMLCanvasElement) =>
  new Promise<Blob>((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('no PNG'))), 'image/png'));
