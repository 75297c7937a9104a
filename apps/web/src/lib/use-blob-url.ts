import { useEffect, useState } from 'react';
import { http } from '@/lib/http';

/**
 * An object URL for a file the API serves behind the bearer token (an `<img>` cannot send it).
 * The URL is revoked when the path changes or the component goes.
 */
export function useAuthorizedBlobUrl(path: string | null): { url: string | null; failed: boolean } {
  const [state, setState] = useState<{ path: string | null; url: string | null; failed: boolean }>({ path: null, url: null, failed: false });

  useEffect(() => {
    if (!path) return;
    const controller = new AbortController();
    let created: string | null = null;
    http
      .getBlob(path, { signal: controller.signal })
      .then((blob) => {
        created = URL.createObjectURL(blob);
        setState({ path, url: created, failed: false });
      })
      .catch((error: unknown) => {
        if (error instanceof DOMException && error.name === 'AbortError') return;
        setState({ path, url: null, failed: true });
      });
    return () => {
      controller.abort();
      if (created) URL.revokeObjectURL(created);
    };
  }, [path]);

  return state.path === path ? { url: state.url, failed: state.failed } : { url: null, failed: false };
}

/** A local file shown before it is sent. */
export function useFilePreviewUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const created = URL.createObjectURL(file);
    setUrl(created);
    return () => URL.revokeObjectURL(created);
  }, [file]);
  return url;
}
