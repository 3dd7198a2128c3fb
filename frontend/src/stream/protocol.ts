// The stream protocol's wire format on the browser side: HostFrame in, ClientFrame out, as plain
// values. The types come from ../gamehost/proto/stream.proto (src/gen/stream_pb.ts, `npm run gen`);
// nothing here restates a field by hand.
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { ClientFrameSchema, HostFrameSchema, type ClientFrame } from '../gen/stream_pb';

/** What the host sent, free of protobuf types. */
export type HostEvent =
  | { kind: 'config'; codec: string; width: number; height: number; fps: number; input: boolean }
  | { kind: 'video'; key: boolean; seq: number; captureUs: number; data: Uint8Array }
  | { kind: 'pong'; clientMs: number }
  | { kind: 'notice'; code: number; text: string };

/** What the page sends to the host. */
export type ClientEvent =
  | { kind: 'key'; code: string; down: boolean }
  | { kind: 'move'; x: number; y: number }
  | { kind: 'delta'; dx: number; dy: number }
  | { kind: 'button'; button: number; down: boolean }
  | { kind: 'wheel'; dx: number; dy: number }
  | { kind: 'ping'; clientMs: number }
  | { kind: 'keyFrame' };

/** Decodes one binary message of the host; null for what is not a frame of ours. */
export function decodeHostFrame(bytes: Uint8Array): HostEvent | null {
  let frame;
  try {
    frame = fromBinary(HostFrameSchema, bytes);
  } catch {
    return null;
  }
  const b = frame.body;
  switch (b.case) {
    case 'config':
      return { kind: 'config', codec: b.value.codec, width: b.value.width, height: b.value.height, fps: b.value.fps, input: b.value.input };
    case 'video':
      // sequence numbers and microsecond stamps stay far below 2^53 for any real session
      return { kind: 'video', key: b.value.key, seq: Number(b.value.seq), captureUs: Number(b.value.captureUs), data: b.value.data };
    case 'pong':
      return { kind: 'pong', clientMs: b.value.clientMs };
    case 'notice':
      return { kind: 'notice', code: b.value.code, text: b.value.text };
    default:
      return null;
  }
}

function bodyOf(e: ClientEvent): ClientFrame['body'] {
  switch (e.kind) {
    case 'key':
      return { case: 'key', value: { $typeName: 'yoo.stream.v1.Key', code: e.code, down: e.down } };
    case 'move':
      return { case: 'move', value: { $typeName: 'yoo.stream.v1.PointerMove', x: e.x, y: e.y } };
    case 'delta':
      return { case: 'delta', value: { $typeName: 'yoo.stream.v1.PointerDelta', dx: e.dx, dy: e.dy } };
    case 'button':
      return { case: 'button', value: { $typeName: 'yoo.stream.v1.Button', button: e.button, down: e.down } };
    case 'wheel':
      return { case: 'wheel', value: { $typeName: 'yoo.stream.v1.Wheel', dx: e.dx, dy: e.dy } };
    case 'ping':
      return { case: 'ping', value: { $typeName: 'yoo.stream.v1.Ping', clientMs: e.clientMs } };
    case 'keyFrame':
      return { case: 'keyFrame', value: { $typeName: 'yoo.stream.v1.KeyFrameRequest' } };
  }
}

/** Encodes one message for the host. */
export function encodeClientFrame(e: ClientEvent): Uint8Array {
  return toBinary(ClientFrameSchema, create(ClientFrameSchema, { body: bodyOf(e) }));
}
