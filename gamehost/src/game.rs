//! A game's process: launched in its own process group (so ending it ends everything it
//! started), at a lower CPU priority, on the slot's display, with a fresh home.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::process::Command;
use tokio::sync::watch;

use crate::config::GameConfig;
use crate::display::die_with_parent;

/// How long a game has to quit after SIGTERM before it gets SIGKILL.
const TERM_GRACE: Duration = Duration::from_millis(1500);

/// A launched game.
pub struct Game {
    /// The group leader's pid, which is the group's id.
    pub pgid: i32,
    /// Becomes true when the leader has exited and been reaped (by the task that waits on it).
    exited: watch::Receiver<bool>,
}

/// Told how the game's leader ended (`exited with status 0`, `killed by signal 9`).
pub type OnExit = Box<dyn FnOnce(String) + Send>;

/// What a game is launched with.
pub struct Launch<'a> {
    pub game: &'a GameConfig,
    /// `DISPLAY`.
    pub display: String,
    /// The slot's home for this session (created empty, `home_files` written into it).
    pub home: PathBuf,
    /// What `@self` means.
    pub self_exe: &'a Path,
}

impl Game {
    /// Starts the game; `on_exit` is told when its leader ends, whoever ended it.
    pub fn spawn(l: Launch<'_>, on_exit: OnExit) -> std::io::Result<Game> {
        prepare_home(&l.home, l.game)?;
        let program: &Path = if l.game.program == "@self" {
            l.self_exe
        } else {
            Path::new(&l.game.program)
        };
        let mut cmd = Command::new(program);
        cmd.args(&l.game.args)
            .env("DISPLAY", &l.display)
            .env("HOME", &l.home)
            .env("XDG_CONFIG_HOME", l.home.join(".config"))
            .env("XDG_DATA_HOME", l.home.join(".local/share"))
            // No sound card on a host; SDL games otherwise wait on ALSA.
            .env("SDL_AUDIODRIVER", "dummy")
            .envs(&l.game.env)
            .current_dir(&l.home)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(true);
        // Games live in /usr/games on Debian, which a service's PATH often lacks.
        let path = std::env::var("PATH").unwrap_or_default();
        if !path.split(':').any(|p| p == "/usr/games") {
            cmd.env("PATH", format!("{path}:/usr/games"));
        }
        let nice = l.game.nice;
        // SAFETY: setpriority is async-signal-safe.
        unsafe {
            cmd.pre_exec(move || {
                if libc::setpriority(libc::PRIO_PROCESS, 0, nice) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            });
        }
        die_with_parent(&mut cmd);
        let mut child = cmd.spawn()?;
        let pgid = child
            .id()
            .map(|p| p as i32)
            .ok_or_else(|| std::io::Error::other("game exited at once"))?;
        let (tx, exited) = watch::channel(false);
        tokio::spawn(async move {
            let how = match child.wait().await {
                Ok(status) => match (status.code(), std::os::unix::process::ExitStatusExt::signal(&status)) {
                    (Some(code), _) => format!("exited with status {code}"),
                    (None, Some(sig)) => format!("killed by signal {sig}"),
                    _ => "ended".to_string(),
                },
                Err(e) => format!("cannot be waited on: {e}"),
            };
            let _ = tx.send(true);
            on_exit(how);
        });
        Ok(Game { pgid, exited })
    }

    /// Ends the game and everything in its process group: SIGTERM, then SIGKILL after a grace,
    /// and waits until the leader is reaped.
    pub async fn end(mut self) {
        signal_group(self.pgid, libc::SIGTERM);
        if tokio::time::timeout(TERM_GRACE, self.exited.wait_for(|e| *e)).await.is_err() {
            signal_group(self.pgid, libc::SIGKILL);
            let _ = self.exited.wait_for(|e| *e).await;
        }
        // Members of the group that outlived the leader.
        signal_group(self.pgid, libc::SIGKILL);
    }
}

/// Whether any process of the group is left.
pub fn group_alive(pgid: i32) -> bool {
    // SAFETY: signal 0 only checks for existence.
    unsafe { libc::kill(-pgid, 0) == 0 }
}

fn signal_group(pgid: i32, sig: i32) {
    // SAFETY: a negative pid addresses the process group the host created for the game.
    unsafe {
        libc::kill(-pgid, sig);
    }
}

/// A fresh, empty home with the game's settings files: nothing of the last session (settings,
/// saves, replays) reaches the next player.
fn prepare_home(home: &Path, game: &GameConfig) -> std::io::Result<()> {
    wipe(home)?;
    std::fs::create_dir_all(home)?;
    for (rel, content) in &game.home_files {
        let path = home.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, content)?;
    }
    Ok(())
}

/// Removes a slot's home.
pub fn wipe(home: &Path) -> std::io::Result<()> {
    match std::fs::remove_dir_all(home) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    }
}
