import type { Api } from '../../../transport/types';
import { browserDecoderEnv } from '../../../stream/decoder';
import { browserCodecEnv } from '../../../stream/support';
import type { PlayApi, PlayEnv } from './playStore';

const Paths = {
  streamTicket: '/api/japi/yoo/game/streamTicket',
  qualityReport: '/api/japi/yoo/game/qualityReport',
} as const;

// Until the platform's calls are in the generated contract the two calls go through a loose view
// of the API; the shapes are the platform's (facade/src/dto.rs).
type LooseApi = { post(path: string, body: unknown): Promise<unknown> };

/** The play page's platform calls over the REST client. */
export function platformPlayApi(api: Api): PlayApi {
  const loose = api as unknown as LooseApi;
  return {
    streamTicket: async (id) => {
      const d = (await loose.post(Paths.streamTicket, { id })) as { streamUrl: string; ticket: string };
      return { streamUrl: d.streamUrl, ticket: d.ticket };
    },
    qualityReport: async (id, s) => {
      await loose.post(Paths.qualityReport, { id, ...s });
    },
  };
}

/** The browser's WebSocket, WebCodecs and clock. */
export function browserPlayEnv(): PlayEnv {
  return {
    createWebSocket: (url) => new WebSocket(url),
    decoder: browserDecoderEnv(),
    codecs: browserCodecEnv(),
    now: () => performance.now(),
  };
}

/** localStorage, or null where the browser refuses it. */
export function pageStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
