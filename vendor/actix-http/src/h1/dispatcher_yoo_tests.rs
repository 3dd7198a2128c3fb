//! yoo patch: tests of the patch itself. A long-lived streaming response (what a WebSocket is
//! to the dispatcher) and an idle keep-alive connection hold no read or write buffer between
//! polls, and every byte still goes through.

use std::{cell::RefCell, collections::VecDeque, convert::Infallible, pin::pin};

use actix_service::fn_service;
use bytes::Bytes;
use futures_core::Stream as _;

use super::*;
use crate::{
    body::{BodySize, MessageBody},
    h1::{ExpectHandler, UpgradeHandler},
    test::TestBuffer,
    Payload,
};

/// A response body that yields the frames the test queues and is pending otherwise, like a
/// socket between pushes.
struct Frames(Rc<RefCell<VecDeque<Bytes>>>);

impl MessageBody for Frames {
    type Error = Infallible;

    fn size(&self) -> BodySize {
        BodySize::Stream
    }

    fn poll_next(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Infallible>>> {
        match self.0.borrow_mut().pop_front() {
            Some(frame) => Poll::Ready(Some(Ok(frame))),
            None => Poll::Pending,
        }
    }
}

/// (read buffer, write buffer) capacity of a running dispatcher.
fn capacities<T, S, B, X, U>(dispatcher: &Dispatcher<T, S, B, X, U>) -> (usize, usize)
where
    T: AsyncRead + AsyncWrite + Unpin,
    S: Service<Request>,
    S::Error: Into<Response<BoxBody>>,
    S::Response: Into<Response<B>>,
    B: MessageBody,
    X: Service<Request, Response = Request>,
    X::Error: Into<Response<BoxBody>>,
    U: Service<(Request, Framed<T, Codec>), Response = ()>,
    U::Error: fmt::Display,
{
    let DispatcherState::Normal { inner } = &dispatcher.inner else {
        panic!("the dispatcher left the normal state")
    };
    (inner.read_buf.capacity(), inner.write_buf.capacity())
}

// A streaming response that waits between frames holds no buffer, before and after frames are
// written and after client bytes are read; the frames and the client's bytes all arrive.
#[actix_rt::test]
async fn streaming_response_releases_buffers_between_frames() {
    let mut io = TestBuffer::new(
        "GET /echo HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n",
    );
    let frames: Rc<RefCell<VecDeque<Bytes>>> = Rc::default();
    let payload: Rc<RefCell<Option<Payload>>> = Rc::default();
    let services = {
        let (frames, payload) = (frames.clone(), payload.clone());
        HttpFlow::new(
            fn_service(move |mut req: Request| {
                *payload.borrow_mut() = Some(req.take_payload());
                let body = Frames(frames.clone());
                async move { Ok::<_, Error>(Response::ok().set_body(body)) }
            }),
            ExpectHandler,
            None::<UpgradeHandler>,
        )
    };
    let dispatcher = Dispatcher::new(
        io.clone(),
        services,
        ServiceConfig::default(),
        None,
        OnConnectData::default(),
    );
    let mut dispatcher = pin!(dispatcher);
    let mut cx = Context::from_waker(futures_util::task::noop_waker_ref());

    // The head is written; the body waits.
    assert!(dispatcher.as_mut().poll(&mut cx).is_pending());
    let head = io.take_write_buf();
    assert!(head.starts_with(b"HTTP/1.1 200 OK\r\n"), "{head:?}");
    assert_eq!(capacities(&dispatcher), (0, 0));

    // Two frames are written in full, then the buffers are gone again.
    frames.borrow_mut().extend([
        Bytes::from_static(b"first"),
        Bytes::from(vec![b'x'; 20_000]),
    ]);
    assert!(dispatcher.as_mut().poll(&mut cx).is_pending());
    let written = io.take_write_buf();
    assert!(written.windows(5).any(|w| w == b"first"));
    assert_eq!(written.iter().filter(|b| **b == b'x').count(), 20_000);
    assert_eq!(capacities(&dispatcher), (0, 0));

    // Bytes from the client reach the request's payload; the read buffer is released after.
    io.extend_read_buf(b"client frame");
    assert!(dispatcher.as_mut().poll(&mut cx).is_pending());
    assert_eq!(capacities(&dispatcher), (0, 0));
    let mut payload = payload
        .borrow_mut()
        .take()
        .expect("the service took the payload");
    let chunk = match Pin::new(&mut payload).poll_next(&mut cx) {
        Poll::Ready(Some(Ok(chunk))) => chunk,
        other => panic!("no payload chunk: {other:?}"),
    };
    assert_eq!(&chunk[..], b"client frame");
}

// A keep-alive connection idle between requests holds no buffer, and serves the next request.
#[actix_rt::test]
async fn keep_alive_connection_releases_buffers_between_requests() {
    let mut io = TestBuffer::new("GET /a HTTP/1.1\r\nHost: localhost\r\n\r\n");
    let services = HttpFlow::new(
        fn_service(|req: Request| async move {
            Ok::<_, Error>(Response::ok().set_body(req.path().to_owned()))
        }),
        ExpectHandler,
        None::<UpgradeHandler>,
    );
    let dispatcher = Dispatcher::new(
        io.clone(),
        services,
        ServiceConfig::default(),
        None,
        OnConnectData::default(),
    );
    let mut dispatcher = pin!(dispatcher);
    let mut cx = Context::from_waker(futures_util::task::noop_waker_ref());

    assert!(dispatcher.as_mut().poll(&mut cx).is_pending());
    assert!(io.take_write_buf().ends_with(b"\r\n\r\n/a"));
    assert_eq!(capacities(&dispatcher), (0, 0));

    io.extend_read_buf("GET /b HTTP/1.1\r\nHost: localhost\r\n\r\n");
    assert!(dispatcher.as_mut().poll(&mut cx).is_pending());
    assert!(io.take_write_buf().ends_with(b"\r\n\r\n/b"));
    assert_eq!(capacities(&dispatcher), (0, 0));
}
