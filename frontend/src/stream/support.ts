// Whether this browser can show the stream: WebCodecs' VideoDecoder (only in secure contexts:
// HTTPS, or the machine's own address) and the stream's codec. The answer is a Chinese message
// for the player, or null when the stream can be shown.

export const NO_WEBCODECS_MESSAGE = '当前浏览器不支持游戏画面解码（WebCodecs），请使用最新版 Chrome 或 Edge 浏览器';
export const INSECURE_MESSAGE = '游戏画面需要安全连接，请通过 HTTPS 访问本站';
export const NO_CODEC_MESSAGE = '当前浏览器不支持游戏画面的视频格式（H.264），请使用最新版 Chrome 或 Edge 浏览器';

/** The parts of the browser the check reads (the real globals, or a stand-in in tests). */
export interface CodecSupportEnv {
  secureContext: boolean;
  /** VideoDecoder.isConfigSupported, absent without WebCodecs */
  isConfigSupported?: (config: VideoDecoderConfig) => Promise<{ supported?: boolean }>;
}

export function browserCodecEnv(): CodecSupportEnv {
  const vd = typeof VideoDecoder === 'undefined' ? undefined : VideoDecoder;
  return {
    secureContext: typeof window !== 'undefined' ? window.isSecureContext : true,
    isConfigSupported: vd ? (c) => vd.isConfigSupported(c) : undefined,
  };
}

/** Null when the stream can be decoded with `config`, else the message for the player. */
export async function checkCodecSupport(env: CodecSupportEnv, config: VideoDecoderConfig): Promise<string | null> {
  if (!env.isConfigSupported) return env.secureContext ? NO_WEBCODECS_MESSAGE : INSECURE_MESSAGE;
  try {
    const r = await env.isConfigSupported(config);
    return r.supported ? null : NO_CODEC_MESSAGE;
  } catch {
    // a configuration the browser cannot even parse is as good as unsupported
    return NO_CODEC_MESSAGE;
  }
}
