// The QR decoder used where the browser has no BarcodeDetector: the barcode-detector ponyfill,
// whose ZXing WebAssembly file is bundled with the islands instead of fetched from a CDN.
import { BarcodeDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
import wasmURL from 'zxing-wasm/reader/zxing_reader.wasm';
import type { Detector } from './qr-detector';

/** loadPonyfill prepares the WebAssembly decoder and returns a QR detector. */
export function loadPonyfill(): Detector {
  prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmURL : prefix + path) },
  });
  return new BarcodeDetector({ formats: ['qr_code'] }) as unknown as Detector;
}
