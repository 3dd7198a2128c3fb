import { FakeDecoderEnv } from '../test/fakeStream';
import { settle } from '../test/helpers';
import { decoderConfig, VideoPipeline, type DecodedPicture } from './decoder';

const H264 = { codec: 'avc1.42E01F', width: 1280, height: 720 };
const video = (seq: number, key = false) => ({ key, seq, captureUs: seq * 33_333, data: new Uint8Array([seq & 0xff]) });

function setup() {
  const env = new FakeDecoderEnv();
  const pictures: DecodedPicture[] = [];
  let keyRequests = 0;
  const p = new VideoPipeline(env, {
    onPicture: (pic) => {
      pictures.push(pic);
      pic.close();
    },
    onKeyFrameNeeded: () => keyRequests++,
  });
  return { env, p, pictures, keyRequests: () => keyRequests };
}

describe('VideoPipeline', () => {
  it('configures WebCodecs for low latency with the stream\'s codec', () => {
    expect(decoderConfig(H264)).toEqual({
      codec: 'avc1.42E01F',
      codedWidth: 1280,
      codedHeight: 720,
      optimizeForLatency: true,
      hardwareAcceleration: 'no-preference',
    });
    const { env, p } = setup();
    p.configure(H264, true);
    expect(env.last.config).toEqual(decoderConfig(H264));
  });

  it('decodes from the first key frame on, as key and delta chunks with the capture stamp', async () => {
    const { env, p, pictures } = setup();
    p.configure(H264, true);
    p.push(video(1)); // before any key frame: skipped
    p.push(video(2, true));
    p.push(video(3));
    await settle();
    expect(env.last.chunks.map((c) => [c.type, c.timestamp])).toEqual([
      ['key', 2 * 33_333],
      ['delta', 3 * 33_333],
    ]);
    expect(pictures).toHaveLength(2);
    expect(p.decoded).toBe(2);
    expect(p.gate.dropped).toBe(1);
  });

  it('a failed decoder is replaced and a key frame asked for', async () => {
    const { env, p, pictures, keyRequests } = setup();
    p.configure(H264, true);
    p.push(video(1, true));
    await settle();
    const first = env.last;
    first.failNow();
    expect(env.decoders).toHaveLength(2);
    expect(env.last.state).toBe('configured');
    expect(p.failures).toBe(1);
    expect(keyRequests()).toBe(1);
    p.push(video(2)); // a delta after the failure cannot be decoded
    p.push(video(3, true));
    await settle();
    expect(env.last.chunks.map((c) => c.type)).toEqual(['key']);
    expect(pictures).toHaveLength(2);
  });

  it('the same format keeps its decoder; a new one replaces it', () => {
    const { env, p } = setup();
    p.configure(H264, true);
    p.configure(H264, false);
    expect(env.decoders).toHaveLength(1);
    p.configure({ ...H264, width: 1920, height: 1080 }, false);
    expect(env.decoders).toHaveLength(2);
    expect(env.decoders[0].state).toBe('closed');
  });

  it('pictures of a closed pipeline are closed, not shown', async () => {
    const { env, p, pictures } = setup();
    p.configure(H264, true);
    p.push(video(1, true));
    p.close();
    await settle();
    expect(pictures).toHaveLength(0);
    expect(env.last.state).toBe('closed');
  });

  it('a backlog in the decoder skips to a fresh key frame', () => {
    const { env, p, keyRequests } = setup();
    p.configure(H264, true);
    env.last.hold = true;
    for (let s = 1; s <= 8; s++) p.push(video(s, s === 1));
    // the key frame and 4 deltas fill the queue to the limit; from then on the gate waits for a key frame
    expect(env.last.chunks).toHaveLength(5);
    expect(keyRequests()).toBe(1);
  });
});
