/** The avatar the server keeps: a square picture as a data URL of at most 48 KB. */
export const AVATAR_SIZE = 128;
export const AVATAR_MAX_BYTES = 48 * 1024;
/** Larger files are refused before decoding (a phone photo is a few MB). */
export const AVATAR_MAX_FILE_BYTES = 15 * 1024 * 1024;

export class AvatarError extends Error {
  constructor(readonly reason: 'type' | 'tooLarge' | 'unreadable') {
    super(reason);
    this.name = 'AvatarError';
  }
}

const loadImage = (file: Blob) =>
  new Promise<HTMLImageElement>((resolve, reject) => {
    const url = URL.createObjectURL(file);
    const image = new Image();
    image.onload = () => {
      URL.revokeObjectURL(url);
      resolve(image);
    };
    image.onerror = () => {
      URL.revokeObjectURL(url);
      reject(new AvatarError('unreadable'));
    };
    image.src = url;
  });

/**
 * A chosen image file, centre-cropped to a square and drawn at 128 x 128, as
 * a WebP data URL (JPEG where the browser cannot encode WebP), lowering the
 * quality until it fits in 48 KB.
 */
export const resizeAvatar = async (file: File): Promise<string> => {
  if (!/^image\//.test(file.type)) throw new AvatarError('type');
  if (file.size > AVATAR_MAX_FILE_BYTES) throw new AvatarError('tooLarge');
  const image = await loadImage(file);
  const canvas = document.createElement('canvas');
  canvas.width = AVATAR_SIZE;
  canvas.height = AVATAR_SIZE;
  const context = canvas.getContext('2d');
  if (!context || !image.naturalWidth || !image.naturalHeight) throw new AvatarError('unreadable');
  const side = Math.min(image.naturalWidth, image.naturalHeight);
  const sx = (image.naturalWidth - side) / 2;
  const sy = (image.naturalHeight - side) / 2;
  // JPEG has no transparency: a white background under transparent PNGs.
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, AVATAR_SIZE, AVATAR_SIZE);
  context.imageSmoothingQuality = 'high';
  context.drawImage(image, sx, sy, side, side, 0, 0, AVATAR_SIZE, AVATAR_SIZE);
  for (const quality of [0.9, 0.8, 0.7, 0.55, 0.4]) {
    let url = canvas.toDataURL('image/webp', quality);
    if (!url.startsWith('data:image/webp')) url = canvas.toDataURL('image/jpeg', quality);
    if (url.length <= AVATAR_MAX_BYTES) return url;
  }
  throw new AvatarError('tooLarge');
};
