//! Capture and encode one slot's game with GStreamer: the display's top-left `window` is grabbed
//! at the configured rate, converted to I420 and encoded by x264 (constrained baseline, Annex B,
//! one access unit per buffer) into an appsink whose callback hands each unit to the slot's
//! fan-out. Queues between the stages let capture, conversion and encoding run on their own
//! threads (without them this machine managed about 17 fps instead of 30); they are leaky, so a
//! stage that falls behind loses old pictures instead of adding delay.

use std::sync::{Arc, Once};

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use gstreamer_video as gst_video;

use crate::fanout::{avc_codec, AccessUnit, Format, Hub};

/// What to capture and how to encode it.
#[derive(Debug, Clone)]
pub struct CaptureSpec {
    /// `:N`.
    pub display: String,
    /// The captured rectangle's size, from the display's top left corner.
    pub size: [u32; 2],
    pub fps: u32,
    pub bitrate_kbps: u32,
    /// Frames between two unrequested key frames.
    pub key_int: u32,
}

/// Called from a GStreamer thread when the pipeline fails.
pub type OnError = Box<dyn Fn(String) + Send + Sync>;

/// A running capture pipeline. [`Capture::stop`] ends it; dropping it stops it too.
pub struct Capture {
    pipeline: gst::Pipeline,
}

/// Initializes GStreamer once per process.
pub fn init() -> Result<(), String> {
    static INIT: Once = Once::new();
    let mut result = Ok(());
    INIT.call_once(|| result = gst::init().map_err(|e| e.to_string()));
    result
}

impl CaptureSpec {
    fn pipeline(&self) -> String {
        let [w, h] = self.size;
        let leaky = "queue max-size-buffers=2 max-size-bytes=0 max-size-time=0 leaky=downstream";
        format!(
            "ximagesrc display-name={display} use-damage=false show-pointer=false startx=0 starty=0 endx={ex} endy={ey} \
             ! video/x-raw,framerate={fps}/1 ! {leaky} ! videoconvert ! video/x-raw,format=I420 ! {leaky} \
             ! x264enc name=enc tune=zerolatency speed-preset=ultrafast key-int-max={ki} bitrate={br} \
             ! video/x-h264,profile=constrained-baseline,stream-format=byte-stream,alignment=au \
             ! appsink name=sink sync=false max-buffers=8 drop=true",
            display = self.display,
            ex = w - 1,
            ey = h - 1,
            fps = self.fps,
            ki = self.key_int,
            br = self.bitrate_kbps,
        )
    }
}

impl Capture {
    /// Builds and starts the pipeline; every encoded unit goes to `hub`.
    pub fn start(spec: &CaptureSpec, hub: Arc<Hub>, on_error: OnError) -> Result<Capture, String> {
        init()?;
        let pipeline = gst::parse::launch(&spec.pipeline())
            .map_err(|e| format!("capture pipeline: {e}"))?
            .downcast::<gst::Pipeline>()
            .map_err(|_| "capture pipeline is not a pipeline".to_string())?;
        let sink = pipeline
            .by_name("sink")
            .and_then(|e| e.downcast::<gst_app::AppSink>().ok())
            .ok_or("capture pipeline has no appsink")?;
        let base = spec.clone();
        // Weak: the pipeline owns the sink that owns this callback.
        let element = pipeline.downgrade();
        sink.set_callbacks(
            gst_app::AppSinkCallbacks::builder()
                .new_sample(move |sink| {
                    let sample = sink.pull_sample().map_err(|_| gst::FlowError::Eos)?;
                    let buffer = sample.buffer().ok_or(gst::FlowError::Error)?;
                    let key = !buffer.flags().contains(gst::BufferFlags::DELTA_UNIT);
                    let map = buffer.map_readable().map_err(|_| gst::FlowError::Error)?;
                    let data = map.as_slice().to_vec();
                    drop(map);
                    // When the picture was captured, on the pipeline's clock (the system's
                    // monotonic clock).
                    let element = element.upgrade().ok_or(gst::FlowError::Flushing)?;
                    let base_time = element.base_time().map_or(0, |t| t.nseconds());
                    let capture_ns = base_time + buffer.pts().map_or(0, |t| t.nseconds());
                    if let Some(clock) = element.clock() {
                        let took = clock.time().nseconds().saturating_sub(capture_ns);
                        metrics::histogram!("yoo_gamehost_encode_seconds").record(took as f64 / 1e9);
                    }
                    let format = if key {
                        avc_codec(&data).map(|codec| Format {
                            codec,
                            width: base.size[0],
                            height: base.size[1],
                            fps: base.fps,
                        })
                    } else {
                        None
                    };
                    let au = AccessUnit {
                        key,
                        capture_us: capture_ns / 1000,
                        data,
                    };
                    hub.publish(au, format);
                    Ok(gst::FlowSuccess::Ok)
                })
                .build(),
        );
        let bus = pipeline.bus().ok_or("capture pipeline has no bus")?;
        bus.set_sync_handler(move |_, msg| {
            if let gst::MessageView::Error(e) = msg.view() {
                on_error(format!("{} ({:?})", e.error(), e.debug()));
            }
            gst::BusSyncReply::Drop
        });
        pipeline
            .set_state(gst::State::Playing)
            .map_err(|e| format!("capture pipeline does not start: {e}"))?;
        Ok(Capture { pipeline })
    }

    /// Asks the encoder for a key frame (with its sequence headers) as soon as it can.
    pub fn key_requester(&self) -> impl Fn() + Send + Sync + 'static {
        // Weak: the fan-out keeps this, and the sink's callback keeps the fan-out.
        let sink = self.pipeline.by_name("sink").expect("the pipeline has its sink").downgrade();
        move || {
            if let Some(sink) = sink.upgrade() {
                let event = gst_video::UpstreamForceKeyUnitEvent::builder().all_headers(true).build();
                sink.send_event(event);
            }
        }
    }

    /// Now, in the capture timestamps' time base (microseconds).
    pub fn now_us(&self) -> u64 {
        self.pipeline.clock().map_or(0, |c| c.time().nseconds() / 1000)
    }

    /// Stops the pipeline and frees its threads (blocks until they are joined).
    pub fn stop(self) {
        let _ = self.pipeline.set_state(gst::State::Null);
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        let _ = self.pipeline.set_state(gst::State::Null);
    }
}
