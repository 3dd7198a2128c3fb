//! What the room-scale parent and its socket-holding children say to each other: one line per
//! message, space-separated fields, over the child's stdin (commands) and stdout (reports).
//! Cookie values, device numbers and numbers hold no spaces.

/// A viewer handed to a child: its login, and whether it churns (leaves and comes back).
#[derive(Debug, Clone, PartialEq)]
pub struct ViewerSeat {
    pub index: usize,
    pub device: String,
    pub sid: String,
    pub csrf: String,
    pub churner: bool,
}

/// Parent → child.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Viewer(ViewerSeat),
    /// Open, enter and watch for every viewer, this many at once.
    Connect(usize),
    /// The window opens at `origin_us`; this child's churners leave and come back at
    /// `churn_milli / 1000` per second.
    Window {
        origin_us: i64,
        churn_milli: u64,
    },
    /// Stop churning.
    Stop,
    /// Send every figure for the messages `lo..=hi`, then `End`.
    Report {
        lo: u32,
        hi: u32,
    },
}

/// Sums over a child's viewers, for the messages the parent asked about.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct ViewerSums {
    /// Viewers watching from before the window to the report, never churned, socket open.
    pub steady: usize,
    /// Steady viewers that received every message.
    pub complete: usize,
    /// Messages steady viewers never received (viewer × message).
    pub missing: u64,
    /// Over every viewer: events received, offsets skipped, events received twice, chats
    /// received twice, resets, sockets the server closed.
    pub events: u64,
    /// Events received from the window's start to the report (every kind, chat included).
    pub events_window: u64,
    pub offset_gaps: u64,
    pub offset_dups: u64,
    pub chat_dups: u64,
    pub resets: u64,
    pub closed: usize,
}

/// Child → parent.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Every viewer tried: watching, failed, the child's open files.
    Connected {
        ok: usize,
        failed: usize,
        fds: usize,
    },
    /// A failure tally: step, count, cause.
    Error {
        step: String,
        count: usize,
        cause: String,
    },
    WindowOpen,
    Stopped,
    /// Message `seq`: receipts, send µs, last receipt µs.
    Seq {
        seq: u32,
        receipts: u64,
        send_us: i64,
        last_us: i64,
    },
    /// Receipts whose latency was in this 1 ms bucket.
    Latency {
        ms: u32,
        count: u64,
    },
    /// Receipts in this 10 ms bin after the window's origin.
    Bin {
        bin: usize,
        count: u64,
    },
    Viewers(ViewerSums),
    /// Churn done: leaves (exit answered), entries (watching again).
    Churn {
        exits: u64,
        enters: u64,
    },
    /// The child's CPU ticks from `Window` to `Report`; frames decoded, frames reused.
    Usage {
        cpu_ticks: u64,
        decoded: u64,
        reused: u64,
    },
    End,
}

impl Command {
    pub fn line(&self) -> String {
        match self {
            Command::Viewer(v) => format!("V {} {} {} {} {}", v.index, v.device, v.sid, v.csrf, v.churner as u8),
            Command::Connect(n) => format!("CONNECT {n}"),
            Command::Window { origin_us, churn_milli } => format!("WINDOW {origin_us} {churn_milli}"),
            Command::Stop => "STOP".into(),
            Command::Report { lo, hi } => format!("REPORT {lo} {hi}"),
        }
    }

    pub fn parse(line: &str) -> Option<Command> {
        let f: Vec<&str> = line.split_whitespace().collect();
        Some(match f.as_slice() {
            ["V", index, device, sid, csrf, churner] => Command::Viewer(ViewerSeat {
                index: index.parse().ok()?,
                device: device.to_string(),
                sid: sid.to_string(),
                csrf: csrf.to_string(),
                churner: *churner == "1",
            }),
            ["CONNECT", n] => Command::Connect(n.parse().ok()?),
            ["WINDOW", o, c] => Command::Window {
                origin_us: o.parse().ok()?,
                churn_milli: c.parse().ok()?,
            },
            ["STOP"] => Command::Stop,
            ["REPORT", lo, hi] => Command::Report {
                lo: lo.parse().ok()?,
                hi: hi.parse().ok()?,
            },
            _ => return None,
        })
    }
}

impl Event {
    pub fn line(&self) -> String {
        match self {
            Event::Connected { ok, failed, fds } => format!("CONNECTED {ok} {failed} {fds}"),
            Event::Error { step, count, cause } => format!("ERR {} {count} {}", step.replace(' ', "_"), cause.replace('\n', " ")),
            Event::WindowOpen => "WINDOW-OPEN".into(),
            Event::Stopped => "STOPPED".into(),
            Event::Seq {
                seq,
                receipts,
                send_us,
                last_us,
            } => format!("M {seq} {receipts} {send_us} {last_us}"),
            Event::Latency { ms, count } => format!("H {ms} {count}"),
            Event::Bin { bin, count } => format!("B {bin} {count}"),
            Event::Viewers(v) => format!(
                "VIEWERS {} {} {} {} {} {} {} {} {} {}",
                v.steady, v.complete, v.missing, v.events, v.events_window, v.offset_gaps, v.offset_dups, v.chat_dups, v.resets, v.closed
            ),
            Event::Churn { exits, enters } => format!("CHURN {exits} {enters}"),
            Event::Usage {
                cpu_ticks,
                decoded,
                reused,
            } => format!("USAGE {cpu_ticks} {decoded} {reused}"),
            Event::End => "END".into(),
        }
    }

    pub fn parse(line: &str) -> Option<Event> {
        let f: Vec<&str> = line.split_whitespace().collect();
        let n = |i: usize| f.get(i)?.parse::<i64>().ok();
        let u = |i: usize| f.get(i)?.parse::<u64>().ok();
        Some(match *f.first()? {
            "CONNECTED" => Event::Connected {
                ok: u(1)? as usize,
                failed: u(2)? as usize,
                fds: u(3)? as usize,
            },
            "ERR" => Event::Error {
                step: f.get(1)?.replace('_', " "),
                count: u(2)? as usize,
                cause: f[3..].join(" "),
            },
            "WINDOW-OPEN" => Event::WindowOpen,
            "STOPPED" => Event::Stopped,
            "M" => Event::Seq {
                seq: u(1)? as u32,
                receipts: u(2)?,
                send_us: n(3)?,
                last_us: n(4)?,
            },
            "H" => Event::Latency {
                ms: u(1)? as u32,
                count: u(2)?,
            },
            "B" => Event::Bin {
                bin: u(1)? as usize,
                count: u(2)?,
            },
            "VIEWERS" => Event::Viewers(ViewerSums {
                steady: u(1)? as usize,
                complete: u(2)? as usize,
                missing: u(3)?,
                events: u(4)?,
                events_window: u(5)?,
                offset_gaps: u(6)?,
                offset_dups: u(7)?,
                chat_dups: u(8)?,
                resets: u(9)?,
                closed: u(10)? as usize,
            }),
            "CHURN" => Event::Churn {
                exits: u(1)?,
                enters: u(2)?,
            },
            "USAGE" => Event::Usage {
                cpu_ticks: u(1)?,
                decoded: u(2)?,
                reused: u(3)?,
            },
            "END" => Event::End,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every message reads back as itself; junk is refused.
    #[test]
    fn round_trip() {
        let commands = [
            Command::Viewer(ViewerSeat {
                index: 3,
                device: "rs-1-3".into(),
                sid: "abc".into(),
                csrf: "def".into(),
                churner: true,
            }),
            Command::Connect(100),
            Command::Window {
                origin_us: 1_700_000_000_000_000,
                churn_milli: 16_667,
            },
            Command::Stop,
            Command::Report { lo: 1, hi: 400 },
        ];
        for c in commands {
            assert_eq!(Command::parse(&c.line()), Some(c));
        }
        let events = [
            Event::Connected { ok: 5, failed: 1, fds: 60 },
            Event::Error {
                step: "enter".into(),
                count: 2,
                cause: "code 130300".into(),
            },
            Event::WindowOpen,
            Event::Stopped,
            Event::Seq {
                seq: 9,
                receipts: 6_333,
                send_us: 1,
                last_us: 2,
            },
            Event::Latency { ms: 12, count: 400 },
            Event::Bin { bin: 3, count: 7 },
            Event::Viewers(ViewerSums {
                steady: 1,
                complete: 2,
                missing: 3,
                events: 4,
                events_window: 40,
                offset_gaps: 5,
                offset_dups: 6,
                chat_dups: 7,
                resets: 8,
                closed: 9,
            }),
            Event::Churn { exits: 10, enters: 11 },
            Event::Usage {
                cpu_ticks: 40,
                decoded: 3,
                reused: 900,
            },
            Event::End,
        ];
        for e in events {
            assert_eq!(Event::parse(&e.line()), Some(e));
        }
        assert_eq!(Command::parse("V 1 d s c"), None);
        assert_eq!(Event::parse("M x 1 2 3"), None);
    }
}
