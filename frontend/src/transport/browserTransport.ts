import { browserEnv, Identity } from './identity';
import { LazyPushChannel } from './lazyChannel';
import { probeNode } from './probe';
import { RestClient } from './restClient';
import type { Transport } from './types';

/**
 * The real transport of the browser: same-origin REST and ws(s)://host/echo. The socket's code
 * (with the protobuf runtime) is its own chunk, loaded when the socket first opens.
 */
export function createBrowserTransport(): Transport {
  const identity = new Identity(browserEnv());
  const api = new RestClient({ fetch: (input, init) => window.fetch(input, init), identity });
  return {
    api,
    deviceId: () => identity.deviceId(),
    probe: (url) => probeNode(url),
    createPushChannel: (handlers) =>
      new LazyPushChannel(async () => {
        const { Socket } = await import('./socket');
        return new Socket({
          api,
          handlers,
          url: (token) => {
            const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
            return `${scheme}://${window.location.host}/echo?access_token=${encodeURIComponent(token)}`;
          },
          createWebSocket: (url) => new WebSocket(url),
        });
      }),
  };
}
