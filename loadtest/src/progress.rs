//! A live progress line per phase (indicatif), on stderr, and only when stderr is a terminal:
//! tests, CI and the benchmark scripts' `| tee` see nothing of it (stdout carries the report).
//!
//! A [`Phase`] counts what the phase enrolled and what failed; its line shows the count, the
//! rate and the errors. Phases without a known size show a spinner with the elapsed time.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use std::sync::OnceLock;

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// One phase's line. Cheap to clone (shared).
#[derive(Clone)]
pub struct Phase {
    bar: ProgressBar,
    errors: Arc<AtomicU64>,
    /// A spinner's line is cleared when it finishes (the phase's note stays above).
    spinner: bool,
}

/// Whether progress lines are drawn at all: stderr is a terminal and `LOADTEST_PROGRESS` is not `0`.
pub fn enabled() -> bool {
    std::io::stderr().is_terminal() && std::env::var("LOADTEST_PROGRESS").map_or(true, |v| v != "0")
}

/// Every line of the run, drawn together (a note printed through it lands above them).
fn multi() -> &'static MultiProgress {
    static MULTI: OnceLock<MultiProgress> = OnceLock::new();
    MULTI.get_or_init(|| {
        let target = if enabled() {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        MultiProgress::with_draw_target(target)
    })
}

/// A line of text on stderr, above the progress lines when they are drawn.
pub fn println(msg: &str) {
    if enabled() && multi().println(msg).is_ok() {
        return;
    }
    eprintln!("{msg}");
}

/// A phase of `total` units (players, logins, orders, sockets).
pub fn phase(name: &str, total: u64) -> Phase {
    let bar = multi().add(ProgressBar::new(total));
    bar.set_style(
        ProgressStyle::with_template("{prefix:>12} [{elapsed_precise}] {bar:30} {pos}/{len} {rate:>9} {msg}")
            .expect("the template is valid")
            .with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.1}/s", s.per_sec());
            })
            .progress_chars("=> "),
    );
    bar.set_prefix(name.to_string());
    bar.set_message("errors 0");
    bar.enable_steady_tick(Duration::from_millis(250));
    Phase {
        bar,
        errors: Arc::new(AtomicU64::new(0)),
        spinner: false,
    }
}

/// A phase of unknown size (a window, a drain): a spinner and the elapsed time.
pub fn spinner(name: &str) -> Phase {
    let bar = multi().add(ProgressBar::new_spinner().with_finish(indicatif::ProgressFinish::AndClear));
    bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("the template is valid"));
    bar.set_message(name.to_string());
    bar.enable_steady_tick(Duration::from_millis(250));
    Phase {
        bar,
        errors: Arc::new(AtomicU64::new(0)),
        spinner: true,
    }
}

impl Phase {
    /// One unit done; `ok` false counts an error.
    pub fn done(&self, ok: bool) {
        if !ok {
            let n = self.errors.fetch_add(1, Ordering::Relaxed) + 1;
            self.bar.set_message(format!("errors {n}"));
        }
        self.bar.inc(1);
    }

    pub fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }

    pub fn position(&self) -> u64 {
        self.bar.position()
    }

    /// Leaves a phase's final count on the terminal; clears a spinner.
    pub fn finish(&self) {
        if self.spinner {
            self.bar.finish_and_clear();
        } else {
            self.bar.finish();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Counting works whether or not a line is drawn (under `cargo test` stderr is captured).
    #[test]
    fn counts_units_and_errors() {
        let p = phase("logins", 3);
        p.done(true);
        p.clone().done(false);
        p.done(true);
        p.finish();
        assert_eq!((p.position(), p.errors()), (3, 1));
        spinner("window").finish();
    }
}
