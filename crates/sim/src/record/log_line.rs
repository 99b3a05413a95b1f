//! A component's log line and its klog severity.

use super::super::time::SimTime;
use super::Actor;

/// A line a component logged (the lines a reader would find with `journalctl -u kubelet`).
#[derive(Clone, Debug, PartialEq)]
pub struct LogLine {
    pub seq: u64,
    pub t: SimTime,
    pub actor: Actor,
    pub severity: Severity,
    /// The structured message as klog's text format prints it after the header
    /// (`"Message" key="value"`). Boxed exactly (a `format!`ed string has room to spare, kept
    /// with it for the whole log).
    pub message: Box<str>,
}

/// A log line's klog severity (the first letter of its header).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    /// The letter klog starts the line with.
    pub fn letter(self) -> char {
        match self {
            Severity::Info => 'I',
            Severity::Warning => 'W',
            Severity::Error => 'E',
        }
    }

    /// The name in the timeline's JSON (`info`, `warning`, `error`).
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}
