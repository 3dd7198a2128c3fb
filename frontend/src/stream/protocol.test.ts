import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { ClientFrameSchema, HostFrameSchema, VideoSchema } from '../gen/stream_pb';
import { decodeHostFrame, encodeClientFrame, type ClientEvent } from './protocol';

describe('stream protocol', () => {
  it('decodes the host frames into plain events', () => {
    const video = toBinary(
      HostFrameSchema,
      create(HostFrameSchema, {
        body: { case: 'video', value: create(VideoSchema, { key: true, seq: 42n, captureUs: 1_700_000_000_123_456n, data: new Uint8Array([0, 0, 0, 1, 0x65]) }) },
      }),
    );
    expect(decodeHostFrame(video)).toEqual({ kind: 'video', key: true, seq: 42, captureUs: 1_700_000_000_123_456, data: new Uint8Array([0, 0, 0, 1, 0x65]) });
    const pong = toBinary(HostFrameSchema, create(HostFrameSchema, { body: { case: 'pong', value: { $typeName: 'yoo.stream.v1.Pong', clientMs: 12.5 } } }));
    expect(decodeHostFrame(pong)).toEqual({ kind: 'pong', clientMs: 12.5 });
  });

  it('ignores what is not a frame of ours', () => {
    expect(decodeHostFrame(new Uint8Array([0xff, 0xff, 0xff]))).toBeNull();
    expect(decodeHostFrame(new Uint8Array())).toBeNull(); // an empty HostFrame has no body
  });

  it('encodes every client event as the matching ClientFrame', () => {
    const events: ClientEvent[] = [
      { kind: 'key', code: 'ArrowLeft', down: true },
      { kind: 'move', x: 639, y: 359 },
      { kind: 'delta', dx: -3, dy: 7 },
      { kind: 'button', button: 2, down: false },
      { kind: 'wheel', dx: 0, dy: -2 },
      { kind: 'ping', clientMs: 1234.5 },
      { kind: 'keyFrame' },
    ];
    const cases = events.map((e) => fromBinary(ClientFrameSchema, encodeClientFrame(e)).body.case);
    expect(cases).toEqual(['key', 'move', 'delta', 'button', 'wheel', 'ping', 'keyFrame']);
    const delta = fromBinary(ClientFrameSchema, encodeClientFrame({ kind: 'delta', dx: -3, dy: 7 })).body;
    expect(delta.case === 'delta' && [delta.value.dx, delta.value.dy]).toEqual([-3, 7]);
  });
});
