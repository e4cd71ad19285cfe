// The camera scanner shared by the gate and the activity islands: a start/stop button, the camera
// view and a message when there is no camera. It reads one frame every 250 ms and hands each QR
// payload to onCode (the same payload again only after 10 s).
import { useEffect, useRef, useState } from 'react';
import type { Detector } from '../lib/qr-detector';

/** QRScannerProps configure the scanner's labels and what a read code does. */
export interface QRScannerProps {
  onCode: (value: string) => void;
  startLabel: string;
  unavailable: string;
  className?: string;
}

const FRAME_MS = 250;
const REPEAT_MS = 10000;

/** QRScanner opens the back camera on demand and reports the QR codes it reads. */
export function QRScanner({ onCode, startLabel, unavailable, className = 'gate-camera' }: QRScannerProps) {
  const [camera, setCamera] = useState<'off' | 'starting' | 'on' | 'error'>('off');
  const video = useRef<HTMLVideoElement>(null);
  const handler = useRef(onCode);
  handler.current = onCode;

  useEffect(() => {
    if (camera !== 'starting') return;
    let stream: MediaStream | null = null;
    let timer = 0;
    let stopped = false;
    let last = '';
    let lastAt = 0;
    (async () => {
      try {
        stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' } });
        const { qrDetector } = await import('../lib/qr-camera');
        const detector: Detector = await qrDetector();
        if (stopped || !video.current) return;
        video.current.srcObject = stream;
        await video.current.play();
        setCamera('on');
        timer = window.setInterval(async () => {
          if (!video.current || video.current.readyState < 2) return;
          const found = await detector.detect(video.current).catch(() => []);
          const value = found[0]?.rawValue;
          if (value && (value !== last || Date.now() - lastAt > REPEAT_MS)) {
            last = value;
            lastAt = Date.now();
            handler.current(value);
          }
        }, FRAME_MS);
      } catch {
        if (!stopped) setCamera('error');
      }
    })();
    return () => {
      stopped = true;
      clearInterval(timer);
      stream?.getTracks().forEach((t) => t.stop());
    };
  }, [camera === 'starting' || camera === 'on']); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <div className={className}>
      <video ref={video} className={camera === 'on' ? 'gate-video' : 'gate-video gate-video-off'} muted playsInline aria-label="Camera view" />
      {camera === 'off' || camera === 'error' ? (
        <button type="button" className="button block" onClick={() => setCamera('starting')}>
          {startLabel}
        </button>
      ) : (
        <button type="button" className="button block secondary" onClick={() => setCamera('off')}>
          Stop camera
        </button>
      )}
      {camera === 'error' && <p className="field-error">{unavailable}</p>}
    </div>
  );
}
