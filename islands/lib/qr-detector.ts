// The type the gate's QR readers share: the camera module (qr-camera.ts) returns one, the
// ponyfill (qr-ponyfill.ts) builds one and the scanner component (QRScanner.tsx) uses one. It lives
// apart so that qr-camera.ts, which loads qr-ponyfill.ts, and qr-ponyfill.ts do not import each other.

/** Detector reads QR codes from a video frame. */
export interface Detector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}
