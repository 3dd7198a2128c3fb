//! What the parent and its socket-holding children say to each other: one line per message,
//! space-separated fields, over the child's stdin (commands) and stdout (reports). Cookie values,
//! device numbers and numbers hold no spaces.

/// A socket player handed to a child: its login and its queued session.
#[derive(Debug, Clone, PartialEq)]
pub struct Seat {
    pub session_id: i64,
    /// The rank the `start` answer gave (exact: nobody had been admitted yet).
    pub r0: u64,
    pub device: String,
    pub sid: String,
    pub csrf: String,
}

/// Parent → child.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Seat(Seat),
    /// Open the sockets of every seat, this many at once.
    Connect(usize),
    /// Start answering READY pushes with `cancelConfirm`; stop at this admitted rank.
    Window {
        guard: u64,
    },
    /// Stop freeing machines.
    Stop,
    /// Send every record, then `End`.
    Report,
}

/// Child → parent.
#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    /// Every socket tried: opened, failed, first push exact (rank = r0), first push otherwise,
    /// open files of the child.
    Connected {
        ok: usize,
        failed: usize,
        initial_exact: usize,
        initial_other: usize,
        fds: usize,
    },
    /// A failure tally: step, count, cause.
    Error {
        step: String,
        count: usize,
        cause: String,
    },
    WindowOpen,
    /// A READY for the guard rank arrived (µs): the window should end.
    Guard(i64),
    Stopped,
    /// A READY push: r0, receipt µs, `responseTime` ms, `serverTime` ms.
    Ready(u64, i64, i64, i64),
    /// A QUEUE push: r0, receipt µs, sort, `serverTime` ms.
    Rank(u64, i64, u64, i64),
    /// A machine freed: sent µs, answered µs.
    Freed(i64, i64),
    /// The child's CPU ticks between `Window` and `Stop`; sockets the server closed.
    Usage {
        cpu_ticks: u64,
        closed: usize,
    },
    End,
}

impl Command {
    pub fn line(&self) -> String {
        match self {
            Command::Seat(s) => format!("S {} {} {} {} {}", s.session_id, s.r0, s.device, s.sid, s.csrf),
            Command::Connect(n) => format!("CONNECT {n}"),
            Command::Window { guard } => format!("WINDOW {guard}"),
            Command::Stop => "STOP".into(),
            Command::Report => "REPORT".into(),
        }
    }

    pub fn parse(line: &str) -> Option<Command> {
        let f: Vec<&str> = line.split_whitespace().collect();
        Some(match f.as_slice() {
            ["S", id, r0, device, sid, csrf] => Command::Seat(Seat {
                session_id: id.parse().ok()?,
                r0: r0.parse().ok()?,
                device: device.to_string(),
                sid: sid.to_string(),
                csrf: csrf.to_string(),
            }),
            ["CONNECT", n] => Command::Connect(n.parse().ok()?),
            ["WINDOW", g] => Command::Window { guard: g.parse().ok()? },
            ["STOP"] => Command::Stop,
            ["REPORT"] => Command::Report,
            _ => return None,
        })
    }
}

impl Event {
    pub fn line(&self) -> String {
        match self {
            Event::Connected {
                ok,
                failed,
                initial_exact,
                initial_other,
                fds,
            } => {
                format!("CONNECTED {ok} {failed} {initial_exact} {initial_other} {fds}")
            }
            Event::Error { step, count, cause } => format!("ERR {} {count} {}", step.replace(' ', "_"), cause.replace('\n', " ")),
            Event::WindowOpen => "WINDOW-OPEN".into(),
            Event::Guard(t) => format!("GUARD {t}"),
            Event::Stopped => "STOPPED".into(),
            Event::Ready(r0, t, ready, sent) => format!("A {r0} {t} {ready} {sent}"),
            Event::Rank(r0, t, sort, sent) => format!("Q {r0} {t} {sort} {sent}"),
            Event::Freed(s, a) => format!("F {s} {a}"),
            Event::Usage { cpu_ticks, closed } => format!("USAGE {cpu_ticks} {closed}"),
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
                initial_exact: u(3)? as usize,
                initial_other: u(4)? as usize,
                fds: u(5)? as usize,
            },
            "ERR" => Event::Error {
                step: f.get(1)?.replace('_', " "),
                count: u(2)? as usize,
                cause: f[3..].join(" "),
            },
            "WINDOW-OPEN" => Event::WindowOpen,
            "GUARD" => Event::Guard(n(1)?),
            "STOPPED" => Event::Stopped,
            "A" => Event::Ready(u(1)?, n(2)?, n(3)?, n(4)?),
            "Q" => Event::Rank(u(1)?, n(2)?, u(3)?, n(4)?),
            "F" => Event::Freed(n(1)?, n(2)?),
            "USAGE" => Event::Usage {
                cpu_ticks: u(1)?,
                closed: u(2)? as usize,
            },
            "END" => Event::End,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every message reads back as itself.
    #[test]
    fn round_trip() {
        let commands = [
            Command::Seat(Seat {
                session_id: 7,
                r0: 3,
                device: "qs-1-3".into(),
                sid: "abc".into(),
                csrf: "def".into(),
            }),
            Command::Connect(100),
            Command::Window { guard: 90 },
            Command::Stop,
            Command::Report,
        ];
        for c in commands {
            assert_eq!(Command::parse(&c.line()), Some(c));
        }
        let events = [
            Event::Connected {
                ok: 5,
                failed: 1,
                initial_exact: 4,
                initial_other: 1,
                fds: 60,
            },
            Event::Error {
                step: "ws connect".into(),
                count: 2,
                cause: "code 20119".into(),
            },
            Event::WindowOpen,
            Event::Guard(1_700_000_000_000_000),
            Event::Stopped,
            Event::Ready(12, 99, 98, 98),
            Event::Rank(12, 98, 3, 97),
            Event::Freed(1, 2),
            Event::Usage { cpu_ticks: 40, closed: 0 },
            Event::End,
        ];
        for e in events {
            assert_eq!(Event::parse(&e.line()), Some(e));
        }
        assert_eq!(Command::parse("bogus"), None);
        assert_eq!(Event::parse("A x 1"), None);
    }
}
