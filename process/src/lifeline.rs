//! A child tied to this process's life (Linux): when this process dies, by
//! SIGKILL too, the child's whole process group is killed, so neither an MCP
//! server or Tool, nor what it started (what `npx` or a shell runs), is left
//! running.
//!
//! Why not `PR_SET_PDEATHSIG` alone: it fires when the *thread* that started
//! the child ends, not the process (children started from a short-lived
//! caller thread would be killed with it), and it reaches only the child,
//! not the child's children. Instead:
//!
//! - One pipe per process, the lifeline, both ends close-on-exec, never
//!   closed here: its write end lives exactly as long as this process.
//! - Between fork and exec, each child forks a guard: the guard keeps the
//!   lifeline's read end as its stdin and closes every other descriptor (so
//!   it holds none of the child's pipes, whose ends must close when the child
//!   ends), then execs `/bin/sh -c 'read _; kill -s KILL 0'`: it blocks
//!   reading, and on end of file (every write end gone: this process died)
//!   kills its process group, which is the child's, and itself with it. The
//!   exec is so that a guard does not pin a copy of this process's memory
//!   for its child's life; without `/bin/sh` the guard waits as it is.
//! - The child execs; close-on-exec drops its copies of the lifeline.
//!
//! A guard lives no longer than its child: it has `PR_SET_PDEATHSIG` set
//! for the child's death (its parent, single-threaded until exec), so a
//! child that ends, or whose exec fails, takes its guard with it; ending
//! the child here kills the group anyway ([`super::child::Supervised::end`]). A descendant
//! that leaves the group (`setsid`, a shell's job control) is beyond reach.

use std::process::Command;

/// Has `command`'s child guarded as the module says. Elsewhere than Linux,
/// nothing: the child is still in its own group, killed when it ends.
pub(crate) fn tie(command: &mut Command) -> std::io::Result<()> {
    imp::tie(command)
}

#[cfg(target_os = "linux")]
mod imp {
    use std::io;
    use std::os::fd::RawFd;
    use std::os::unix::process::CommandExt;
    use std::process::Command;
    use std::sync::OnceLock;

    /// The lifeline's (read, write) ends, or why it could not be made.
    fn lifeline() -> io::Result<(RawFd, RawFd)> {
        static LIFELINE: OnceLock<Result<(RawFd, RawFd), i32>> = OnceLock::new();
        let made = LIFELINE.get_or_init(|| {
            let mut fds = [0 as libc::c_int; 2];
            // SAFETY: pipe2 writes two descriptors into the array it is given.
            if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } == 0 {
                Ok((fds[0], fds[1]))
            } else {
                Err(io::Error::last_os_error().raw_os_error().unwrap_or(libc::EIO))
            }
        });
        made.map_err(io::Error::from_raw_os_error)
    }

    pub(super) fn tie(command: &mut Command) -> io::Result<()> {
        let (read_end, _write_end) = lifeline()?;
        // SAFETY: the hook runs in the forked child before exec and calls only
        // async-signal-safe functions (fork, prctl, dup2, close_range/close,
        // execv, read, kill, _exit); it allocates nothing and takes no lock.
        unsafe {
            command.pre_exec(move || {
                let child = libc::getpid();
                match libc::fork() {
                    -1 => Err(io::Error::last_os_error()),
                    0 => guard(read_end, child),
                    _ => Ok(()),
                }
            });
        }
        Ok(())
    }

    /// The guard's whole life (see the module's doc); never returns.
    fn guard(read_end: RawFd, child: libc::pid_t) -> ! {
        // Built on the stack: nothing is allocated between fork and exec.
        let argv = [c"sh".as_ptr(), c"-c".as_ptr(), c"read _; kill -s KILL 0".as_ptr(), std::ptr::null()];
        // SAFETY: plain system calls on descriptors of this process.
        unsafe {
            // The guard goes with its child: a child that ended (or whose
            // exec failed) leaves no guard behind. Checked after the call,
            // since the child may have ended before it. The setting survives
            // the exec below.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
            if libc::getppid() != child {
                libc::_exit(0);
            }
            // The lifeline as stdin (without close-on-exec), nothing else open.
            if libc::dup2(read_end, 0) != 0 {
                libc::_exit(0);
            }
            close_all_but(0);
            // A shell that waits for the end of its stdin, then kills its
            // group (0: the caller's, the child's). Exec'd so that the guard
            // does not pin a copy of this process's memory for the child's life.
            libc::execv(c"/bin/sh".as_ptr(), argv.as_ptr());
            // No shell: the same wait, in this copy of the process.
            let mut byte = 0u8;
            loop {
                let n = libc::read(0, (&raw mut byte).cast::<libc::c_void>(), 1);
                if n < 0 && *libc::__errno_location() == libc::EINTR {
                    continue;
                }
                break;
            }
            libc::kill(0, libc::SIGKILL);
            libc::_exit(0)
        }
    }

    /// Closes every descriptor but `keep`.
    ///
    /// # Safety
    /// Only in a process that uses no descriptor afterwards but `keep`.
    unsafe fn close_all_but(keep: RawFd) {
        let keep = keep as libc::c_uint;
        let closed = |first: libc::c_uint, last: libc::c_uint| {
            // SAFETY: close_range takes any range; descriptors not open are skipped.
            first > last || unsafe { libc::syscall(libc::SYS_close_range, first, last, 0) } == 0
        };
        let below = keep == 0 || closed(0, keep - 1);
        let above = closed(keep + 1, libc::c_uint::MAX);
        if !(below && above) {
            // A kernel before 5.9: one by one, as far as descriptors usually go.
            for fd in 0..65_536 {
                if fd != keep as libc::c_int {
                    // SAFETY: closing a descriptor that may not be open is harmless.
                    unsafe { libc::close(fd) };
                }
            }
        }
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub(super) fn tie(_command: &mut std::process::Command) -> std::io::Result<()> {
        Ok(())
    }
}
