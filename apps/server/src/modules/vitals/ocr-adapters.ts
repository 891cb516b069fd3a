import { createRequire } from 'node:module';
import path from 'node:path';
import type { OcrAdapterName } from '@rpm/contracts';
import { createWorker, OEM, type Worker } from 'tesseract.js';
import { AppError } from '../../http/app-error.js';

/**
 * Photo entry's OCR adapters: a photo of a device's display in, the text it shows out. The local
 * default runs tesseract.js in the server with the English data installed from npm
 * (@tesseract.js-data/eng): nothing is downloaded at run time. A tenant with an OCR API key
 * (setting OCR_HEALTH_DEVICE_API_KEY) uses the cloud adapter instead: Google Cloud Vision's
 * documented `images:annotate` call with TEXT_DETECTION.
 */
export interface OcrAdapter {
  readonly name: OcrAdapterName;
  recognize(image: Buffer): Promise<string>;
}

/** Where the English data lives: the package's LSTM-only set (tesseract.js's default for OEM 1). */
function englishDataPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

/**
 * tesseract.js in a worker thread, started on the first photo and kept for the next ones (a start
 * costs about half a second); its jobs run one at a time. `close` ends the thread.
 */
export function createLocalOcr(): OcrAdapter & { close(): Promise<void> } {
  let worker: Promise<Worker> | undefined;
  const started = () => {
    worker ??= createWorker('eng', OEM.LSTM_ONLY, {
      langPath: englishDataPath(),
      gzip: true,
      // The data is read from the package on every start, never written next to the process.
      cacheMethod: 'none',
    }).catch((error: unknown) => {
      worker = undefined;
      throw error;
    });
    return worker;
  };
  return {
    name: 'LOCAL',
    async recognize(image) {
      const { data } = await (await started()).recognize(image);
      return data.text;
    },
    async close() {
      const running = worker;
      worker = undefined;
      if (running) await (await running).terminate();
    },
  };
}

/** Google Cloud Vision's answer to images:annotate (only what is read of it). */
interface AnnotateResponse {
  responses?: {
    fullTextAnnotation?: { text?: string };
    textAnnotations?: { description?: string }[];
    error?: { code?: number; message?: string };
  }[];
}

export interface CloudOcrOptions {
  apiKey: string;
  /** The service's origin: https://vision.googleapis.com, or a stand-in for tests (config OCR_CLOUD_URL). */
  baseUrl: string;
  timeoutMs?: number;
}

/**
 * Google Cloud Vision `POST /v1/images:annotate` with one TEXT_DETECTION request, the image sent as
 * base64 content and the key in the X-Goog-Api-Key header (kept out of URLs and logs). A failing
 * or unreachable service answers common.unavailable (503): the patient can type the values.
 */
export function createCloudOcr(options: CloudOcrOptions): OcrAdapter {
  return {
    name: 'CLOUD',
    async recognize(image) {
      let response: Response;
      try {
        response = await fetch(new URL('/v1/images:annotate', options.baseUrl), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Goog-Api-Key': options.apiKey },
          body: JSON.stringify({
            requests: [{ image: { content: image.toString('base64') }, features: [{ type: 'TEXT_DETECTION' }] }],
          }),
          signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
        });
      } catch (error) {
        throw new AppError('common.unavailable', { cause: error });
      }
      const answer = (await response.json().catch(() => ({}))) as AnnotateResponse;
      const first = answer.responses?.[0];
      if (!response.ok || first?.error !== undefined)
        throw new AppError('common.unavailable', {
          cause: new Error(`cloud OCR answered ${response.status}: ${first?.error?.message ?? ''}`),
        });
      return first?.fullTextAnnotation?.text ?? first?.textAnnotations?.[0]?.description ?? '';
    },
  };
}

/** The tenant's adapter: the cloud one when it has an OCR API key, else the local one. */
export function ocrAdapterFor(
  settings: ReadonlyMap<string, string>,
  local: OcrAdapter,
  cloudBaseUrl: string,
): OcrAdapter {
  const apiKey = settings.get('OCR_HEALTH_DEVICE_API_KEY')?.trim() ?? '';
  return apiKey === '' ? local : createCloudOcr({ apiKey, baseUrl: cloudBaseUrl });
}
