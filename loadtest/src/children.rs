//! The child processes of the scale scenarios (`queue-scale-child`, `room-scale-child`): this
//! executable started again, told what to do one line at a time on its stdin, reporting one
//! event a line on its stdout.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child as Process, Command as Spawn, Stdio};

use tokio::sync::mpsc;

/// Starts child `i` from `cmd` and wires it up: lines sent on the returned sender are written to
/// its stdin (flushed when none are waiting), and each line it prints is parsed by `parse` and
/// sent on `events` as `(i, Some(event))`; `(i, None)` when its stdout closes. A line that does
/// not parse is printed to stderr under `name`.
pub fn spawn<E: Send + 'static>(
    mut cmd: Spawn,
    i: usize,
    name: &'static str,
    parse: fn(&str) -> Option<E>,
    events: mpsc::UnboundedSender<(usize, Option<E>)>,
) -> Result<(Process, std::sync::mpsc::Sender<String>), String> {
    let mut p = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start {name}-child: {e}"))?;
    let (stdin, stdout) = (p.stdin.take().expect("piped"), p.stdout.take().expect("piped"));
    let (line_tx, line_rx) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        let mut w = std::io::BufWriter::new(stdin);
        while let Ok(line) = line_rx.recv() {
            if writeln!(w, "{line}").is_err() {
                return;
            }
            while let Ok(line) = line_rx.try_recv() {
                if writeln!(w, "{line}").is_err() {
                    return;
                }
            }
            if w.flush().is_err() {
                return;
            }
        }
    });
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            match parse(&line) {
                Some(e) => {
                    let _ = events.send((i, Some(e)));
                }
                None => eprintln!("{name}: child {i} said {line:?}"),
            }
        }
        let _ = events.send((i, None));
    });
    Ok((p, line_tx))
}
