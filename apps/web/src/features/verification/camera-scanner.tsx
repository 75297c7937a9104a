import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { describedBy, FormField } from '@/components/form-field';
import { cameraProblemBeforeAsking, cameraProblemOf, type CameraProblem } from '@/features/verification/camera-support';
import { classifyQrText, type QrContent } from '@/features/verification/qr-content';
import { readQrPhoto, type QrPhotoProblem } from '@/features/verification/qr-photo';
import '@/features/verification/camera-scanner.css';

type Phase = { name: 'idle' } | { name: 'starting' } | { name: 'scanning' } | { name: 'unavailable'; problem: CameraProblem };

/** Time between two looks at the camera's picture: enough for a phone, light on its battery. */
const FRAME_INTERVAL_MS = 150;
/** Frames are read at most this wide: a diploma's QR code held in view needs no more. */
const FRAME_MAX_SIDE = 960;

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * Looks at the video until it shows one of a diploma's QR codes: the browser's BarcodeDetector on
 * the video itself when there is one, else the library on a downscaled frame. Another QR code is
 * reported (onForeign) and the search goes on.
 */
async function scan(video: HTMLVideoElement, signal: AbortSignal, onForeign: () => void): Promise<QrContent | null> {
  const decoder = await import('@/features/verification/qr-decode');
  const native = await decoder.nativeQrDetector();
  const canvas = document.createElement('canvas');
  let context: CanvasRenderingContext2D | null = null;
  let lastForeign = '';
  while (!signal.aborted) {
    await sleep(FRAME_INTERVAL_MS, signal);
    if (signal.aborted) break;
    if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA || !video.videoWidth) continue;
    let text: string | null = null;
    if (native) {
      try {
        text = (await native.detect(video)).find((code) => code.rawValue)?.rawValue ?? null;
      } catch {
        text = null;
      }
    } else {
      const scale = Math.min(1, FRAME_MAX_SIDE / Math.max(video.videoWidth, video.videoHeight));
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      context ??= canvas.getContext('2d', { willReadFrequently: true });
      if (!context) return null;
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      text = decoder.decodeQrPixels(context.getImageData(0, 0, canvas.width, canvas.height));
    }
    if (!text || signal.aborted) continue;
    const content = classifyQrText(text);
    if (content) return content;
    if (text !== lastForeign) onForeign();
    lastForeign = text;
  }
  return null;
}

export interface CameraScannerProps {
  /** One of the diploma's QR codes was read; the camera is already closed. */
  onScan: (content: QrContent) => void;
}

/**
 * "Scan with the camera" (ADR 0095): the rear camera in a video, read until a diploma's QR code
 * shows. Where the camera cannot be used (no secure context, refused, none), the reason in plain
 * words and a photo input that opens the camera app instead (`capture="environment"`). The camera
 * is released when a code is read, when the person closes it, leaves the page or hides the tab.
 */
export function CameraScanner({ onScan }: CameraScannerProps) {
  const { t } = useTranslation();
  const id = useId();
  const [phase, setPhase] = useState<Phase>(() => {
    const problem = cameraProblemBeforeAsking();
    return problem ? { name: 'unavailable', problem } : { name: 'idle' };
  });
  const [foreign, setForeign] = useState(false);
  const [photo, setPhoto] = useState<{ reading: boolean; problem: QrPhotoProblem | null }>({ reading: false, problem: null });
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const session = useRef<AbortController | null>(null);
  const onScanRef = useRef(onScan);
  onScanRef.current = onScan;

  function release() {
    session.current?.abort();
    session.current = null;
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = null;
    if (video.current) video.current.srcObject = null;
  }

  async function start() {
    release();
    const controller = new AbortController();
    session.current = controller;
    setForeign(false);
    setPhase({ name: 'starting' });
    let media: MediaStream;
    try {
      media = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: 'environment' } }, audio: false });
    } catch (error) {
      if (!controller.signal.aborted) setPhase({ name: 'unavailable', problem: cameraProblemOf(error) });
      return;
    }
    if (controller.signal.aborted) {
      for (const track of media.getTracks()) track.stop();
      return;
    }
    stream.current = media;
    const player = video.current;
    if (!player) return release();
    player.srcObject = media;
    try {
      await player.play();
    } catch {
      // Autoplay of a muted inline video is allowed after the tap that opened the camera; a refusal
      // leaves a still picture, which the search below still reads once it has data.
    }
    setPhase({ name: 'scanning' });
    const content = await scan(player, controller.signal, () => setForeign(true)).catch(() => null);
    if (!content || controller.signal.aborted) return;
    release();
    setPhase({ name: 'idle' });
    onScanRef.current(content);
  }

  function stop() {
    release();
    setPhase({ name: 'idle' });
  }

  // Leaving the page (or this mode) closes the camera; so does hiding the tab.
  // biome-ignore lint/correctness/useExhaustiveDependencies: registered once; `stop` and `release` read refs and set state only, so the first render's are right.
  useEffect(() => {
    const onHidden = () => {
      if (document.visibilityState === 'hidden' && stream.current) stop();
    };
    document.addEventListener('visibilitychange', onHidden);
    return () => {
      document.removeEventListener('visibilitychange', onHidden);
      release();
    };
  }, []);

  async function onPhoto(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    if (!file) return;
    setPhoto({ reading: true, problem: null });
    const outcome = await readQrPhoto(file);
    if (outcome.ok) {
      setPhoto({ reading: false, problem: null });
      onScanRef.current(outcome.content);
    } else {
      setPhoto({ reading: false, problem: outcome.problem });
      event.target.value = '';
    }
  }

  const active = phase.name === 'starting' || phase.name === 'scanning';
  const photoId = `${id}-photo`;

  return (
    <div className="camera-scanner" data-testid="camera-scanner">
      {phase.name === 'unavailable' ? (
        <div className="camera-scanner__fallback" data-testid="camera-fallback" data-problem={phase.problem}>
          <p className="alert alert--info" role="status">
            {t(`scan.camera.unavailable.${phase.problem}`)}
          </p>
          <FormField id={photoId} label={t('scan.camera.photo.label')} hint={t('scan.camera.photo.hint')} error={photo.problem ? t(`scan.qr.${photo.problem}`) : null}>
            <input
              id={photoId}
              type="file"
              accept="image/*"
              capture="environment"
              aria-describedby={describedBy(photoId, { hint: true, error: !!photo.problem })}
              aria-invalid={photo.problem ? true : undefined}
              onChange={(event) => void onPhoto(event)}
            />
          </FormField>
          {photo.reading ? (
            <p className="muted" role="status">
              {t('scan.qr.reading')}
            </p>
          ) : null}
          {phase.problem !== 'insecure' && phase.problem !== 'unsupported' ? (
            <button type="button" className="button button--secondary button--small" onClick={() => void start()}>
              {t('scan.camera.start')}
            </button>
          ) : null}
        </div>
      ) : (
        <>
          <p className="muted">{t('scan.camera.intro')}</p>
          <div className={active ? 'camera-scanner__view' : 'camera-scanner__view camera-scanner__view--off'}>
            <video ref={video} className="camera-scanner__video" aria-label={t('scan.camera.video')} muted playsInline autoPlay={false} data-testid="camera-video" />
            {phase.name === 'scanning' ? <span className="camera-scanner__frame" aria-hidden="true" /> : null}
          </div>
          <p className="camera-scanner__status" role="status" aria-live="polite">
            {phase.name === 'starting' ? t('scan.camera.starting') : phase.name === 'scanning' ? (foreign ? t('scan.qr.foreign') : t('scan.camera.scanning')) : ''}
          </p>
          <div className="actions">
            {active ? (
              <button type="button" className="button button--secondary" onClick={stop}>
                {t('scan.camera.stop')}
              </button>
            ) : (
              <button type="button" className="button" onClick={() => void start()} data-testid="camera-start">
                {t('scan.camera.start')}
              </button>
            )}
          </div>
        </>
      )}
    </div>
  );
}

export default CameraScanner;
