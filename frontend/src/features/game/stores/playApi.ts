import type { Api } from '../../../transport/types';
import { browserDecoderEnv } from '../../../stream/decoder';
import { browserCodecEnv } from '../../../stream/support';
import type { PlayApi, PlayEnv } from './playStore';

const Paths = {
  streamTicket: '/api/japi/yoo/game/streamTicket',
  qualityReport: '/api/japi/yoo/game/qualityReport',
  loadTip: '/api/japi/yoo/game/loadTip',
} as const;

/** The play page's platform calls over the REST client. */
export function platformPlayApi(api: Api): PlayApi {
  return {
    streamTicket: async (id) => {
      const d = await api.post(Paths.streamTicket, { id });
      return { streamUrl: d.streamUrl, ticket: d.ticket };
    },
    qualityReport: async (id, s) => {
      await api.post(Paths.qualityReport, { ...s, id });
    },
    loadingTips: async () => (await api.post(Paths.loadTip, {})).tips,
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
