// The gate's camera scanner: the browser's own BarcodeDetector where it reads QR codes (Android
// Chrome, Safari), otherwise the barcode-detector ponyfill (ZXing C++ compiled to WebAssembly),
// loaded only then and served from Palaro itself so it works offline and under the CSP.
import type { Detector } from './qr-detector';

type NativeDetector = { new (o: { formats: string[] }): Detector; getSupportedFormats(): Promise<string[]> };

/** qrDetector returns the native BarcodeDetector when it reads QR codes, else the ponyfill. */
export async function qrDetector(): Promise<Detector> {
  const Native = (window as unknown as { BarcodeDetector?: NativeDetector }).BarcodeDetector;
  if (Native) {
    try {
      if ((await Native.getSupportedFormats()).includes('qr_code')) return new Native({ formats: ['qr_code'] });
    } catch {
      /* fall through to the ponyfill */
    }
  }
  const { loadPonyfill } = await import('./qr-ponyfill');
  return loadPonyfill();
}
