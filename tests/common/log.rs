//! A log sink a test can read after the solve.

use std::sync::{Arc, Mutex};

/// Everything written to it, shared between the logger and the test.
#[derive(Clone, Default)]
pub struct SharedLog(pub Arc<Mutex<Vec<u8>>>);

impl SharedLog {
    /// What was written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().expect("not poisoned").clone()).expect("utf-8 log")
    }
}

impl std::io::Write for SharedLog {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("not poisoned").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
