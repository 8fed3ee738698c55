import { useEffect, useState } from 'react';

/** The image at `url`, decoded (auto-oriented by the browser, as the server does), or null. */
export function useImageElement(url: string) {
  const [image, setImage] = useState<HTMLImageElement | null>(null);
  useEffect(() => {
    let live = true;
    const element = new Image();
    element.src = url;
    element
      .decode()
      .then(() => live && setImage(element))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [url]);
  return image;
}
