//! A started child: its pipes taken apart, the child leading its own
//! process group (Unix) and tied to this process's life ([`super::lifeline`]),
//! and ended for good once: the whole group killed, the child reaped.
//!
//! When the child exits on its own, what it started that stayed in its group
//! is killed at once (a thread waits for the exit without reaping): such a
//! grandchild holds the child's stdout, and the end of that output is how a
//! driver learns the child ended and reads its last lines. The reap stays
//! with [`Supervised::end`], so the pid, and the group id, are ours until
//! the group has been killed.

use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex, MutexGuard};

use super::lifeline;
use super::spec::ProcessSpec;
use super::stderr::{self, StderrMode};

/// A child process that is killed with its group and reaped when it ends,
/// or when this is dropped.
pub struct Supervised {
    id: u32,
    /// Shared with the thread that waits for the child's exit.
    state: Arc<Mutex<ChildState>>,
}

struct ChildState {
    child: Child,
    /// Set once reaped: its pid (and group id) may then belong to another.
    status: Option<ExitStatus>,
}

impl ChildState {
    #[cfg(unix)]
    fn kill_group(&mut self) {
        if self.status.is_some() {
            return;
        }
        let group = libc::pid_t::try_from(self.child.id()).unwrap_or(libc::pid_t::MAX);
        // SAFETY: a signal to the group this unreaped child leads.
        if unsafe { libc::kill(-group, libc::SIGKILL) } != 0 {
            // No such group (the child left it): the child itself.
            let _ = self.child.kill();
        }
    }

    #[cfg(not(unix))]
    fn kill_group(&mut self) {
        if self.status.is_none() {
            let _ = self.child.kill();
        }
    }
}

fn lock(state: &Mutex<ChildState>) -> MutexGuard<'_, ChildState> {
    state.lock().unwrap_or_else(|e| e.into_inner())
}

/// What [`start`] gives: the child, and the two pipes its driver uses.
pub struct Started {
    /// The supervised child.
    pub child: Supervised,
    /// The child's stdin, which the driver writes.
    pub stdin: ChildStdin,
    /// The child's stdout, which the driver reads.
    pub stdout: ChildStdout,
}

/// Starts `spec` with piped stdin and stdout, its stderr as `stderr` says
/// (logged lines are labelled with the command), in a process group of its
/// own, tied to this process's life.
pub fn start(spec: &ProcessSpec, stderr: &StderrMode) -> Result<Started, String> {
    let mut command = Command::new(&spec.program);
    command
        .args(&spec.args)
        .current_dir(&spec.dir)
        .envs(spec.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr.stdio());
    let refused = |e: std::io::Error| format!("could not start `{}` in {}: {e}", spec.display(), spec.dir.display());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
        lifeline::tie(&mut command).map_err(refused)?;
    }
    let mut child = command.spawn().map_err(refused)?;
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        unreachable!("stdin and stdout are piped")
    };
    let pipe = child.stderr.take();
    let mut child = Supervised { id: child.id(), state: Arc::new(Mutex::new(ChildState { child, status: None })) };
    if let Err(e) = child.watch_exit() {
        let _ = child.end();
        return Err(format!("could not start a thread to wait for `{}` to exit: {e}", spec.display()));
    }
    if let (StderrMode::Log(log), Some(pipe)) = (stderr, pipe) {
        let thread_name = format!("stderr {}", child.id());
        if let Err(e) = stderr::log_lines(pipe, spec.display(), log.clone(), thread_name) {
            // A reader is needed, or a chatty child blocks on a full pipe.
            let _ = child.end();
            return Err(format!("could not start a thread to read the stderr of `{}`: {e}", spec.display()));
        }
    }
    Ok(Started { child, stdin, stdout })
}

impl Supervised {
    /// The child's pid, which is also its process group's id.
    pub fn id(&self) -> u32 {
        self.id
    }

    /// Ends the child for good: kills its process group (the child and
    /// whatever it started that stayed in the group), unless the child was
    /// reaped already, then reaps it. A child that exited on its own keeps
    /// its own exit status. Safe to call again: it returns the same status.
    pub fn end(&mut self) -> std::io::Result<ExitStatus> {
        let mut state = lock(&self.state);
        if let Some(status) = state.status {
            return Ok(status);
        }
        // Before the reap: until then the pid, and so the group id, cannot
        // be another process's.
        state.kill_group();
        let status = state.child.wait()?;
        state.status = Some(status);
        Ok(status)
    }

    /// [`Supervised::end`], said as a person would (`exit status: 3`,
    /// `signal: 9 (SIGKILL)`), for outcomes and logs.
    pub fn end_text(&mut self) -> String {
        match self.end() {
            Ok(status) => status.to_string(),
            Err(e) => e.to_string(),
        }
    }

    /// Starts the thread that kills the rest of the group once the child has
    /// exited (see the module's doc).
    #[cfg(unix)]
    fn watch_exit(&self) -> std::io::Result<()> {
        let (pid, state) = (libc::id_t::from(self.id), self.state.clone());
        std::thread::Builder::new().name(format!("exit {pid}")).spawn(move || {
            // SAFETY: waitid writes into the siginfo it is given; WNOWAIT
            // leaves the child to be reaped by `end`.
            let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
            loop {
                let waited = unsafe { libc::waitid(libc::P_PID, pid, &raw mut info, libc::WEXITED | libc::WNOWAIT) };
                if waited == 0 || std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
                    break;
                }
            }
            // Under the lock, and only if not reaped: the group is still ours.
            lock(&state).kill_group();
        })?;
        Ok(())
    }

    #[cfg(not(unix))]
    fn watch_exit(&self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for Supervised {
    fn drop(&mut self) {
        let _ = self.end();
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use std::io::{Read, Write};

    use super::*;

    fn sh(script: &str) -> ProcessSpec {
        ProcessSpec::new("sh", vec!["-c".to_owned(), script.to_owned()], std::env::temp_dir())
    }

    #[test]
    fn a_child_that_exits_keeps_its_status() {
        let Started { mut child, stdin, mut stdout } = start(&sh("read line; exit 3"), &StderrMode::Discard).unwrap();
        // stdin closed: `read` ends, the script exits as it chose, and its
        // stdout closes, which is how a driver learns it ended.
        drop(stdin);
        stdout.read_to_end(&mut Vec::new()).unwrap();
        let status = child.end().unwrap();
        // The group kill came after its exit: not a signal.
        assert_eq!(status.code(), Some(3), "{status}");
        assert_eq!(child.end_text(), "exit status: 3");
    }

    #[test]
    fn ending_kills_what_the_child_started() {
        // The grandchild holds stdout open; it ends only if the group is killed.
        let Started { mut child, mut stdin, mut stdout } =
            start(&sh("sleep 300 & echo started; read line"), &StderrMode::Discard).unwrap();
        let mut first = [0u8; 8];
        stdout.read_exact(&mut first).unwrap();
        assert_eq!(&first, b"started\n");
        let status = child.end().unwrap();
        assert_eq!(std::os::unix::process::ExitStatusExt::signal(&status), Some(libc::SIGKILL));
        // End of file, not a hang: nobody holds the pipe's write end any more.
        let mut rest = Vec::new();
        stdout.read_to_end(&mut rest).unwrap();
        assert!(rest.is_empty());
        // A write to an ended group fails; retried for a while, since another
        // test's child may hold a copy of the pipe between its fork and exec.
        let refused = (0..200).any(|_| {
            let failed = stdin.write_all(b"late\n").and_then(|()| stdin.flush()).is_err();
            if !failed {
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            failed
        });
        assert!(refused, "a write to an ended group fails");
    }

    #[test]
    fn a_child_that_exits_takes_what_it_started_along() {
        // The grandchild holds stdout; its end is seen only once it is killed.
        let Started { mut child, mut stdout, .. } =
            start(&sh("sleep 300 & echo started; exit 4"), &StderrMode::Discard).unwrap();
        let mut out = String::new();
        stdout.read_to_string(&mut out).unwrap();
        assert_eq!(out, "started\n");
        assert_eq!(child.end().unwrap().code(), Some(4));
    }

    #[test]
    fn the_child_leads_its_own_group() {
        let Started { mut child, mut stdout, .. } =
            start(&sh("cut -d' ' -f5 /proc/$$/stat"), &StderrMode::Discard).unwrap();
        let mut out = String::new();
        stdout.read_to_string(&mut out).unwrap();
        assert_eq!(out.trim(), child.id().to_string());
        child.end().unwrap();
    }

    #[test]
    fn a_program_that_is_not_there_names_itself() {
        let err =
            start(&ProcessSpec::new("/nonexistent/flow-tool", Vec::new(), "/"), &StderrMode::Discard).err().unwrap();
        assert!(err.starts_with("could not start `/nonexistent/flow-tool` in /: "), "{err}");
    }
}
