mod cli;

fn main() -> std::process::ExitCode {
    restore_default_sigpipe();
    cli::run()
}

/// Rust ignores SIGPIPE, so `glsolve … | head` would end in a "failed printing to stdout" panic;
/// a command-line tool should instead stop quietly when its reader goes away.
#[cfg(unix)]
fn restore_default_sigpipe() {
    // SAFETY: setting a signal's disposition to SIG_DFL at start, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_default_sigpipe() {}
