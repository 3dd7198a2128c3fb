//! The WebSocket protocol, generated from `proto/yoo.proto`.
include!(concat!(env!("OUT_DIR"), "/yoo.v1.rs"));
