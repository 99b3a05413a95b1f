//! A client's requests waiting for its rate limiter, as the log keeps them.

use super::super::time::SimTime;
use super::{Actor, Log};

/// How many requests a client has waiting for its rate limiter's tokens (requests decided and
/// not sent yet, its Events among them), from `t` on.
#[derive(Clone, Debug, PartialEq)]
pub struct Backlog {
    pub t: SimTime,
    pub actor: Actor,
    pub waiting: u32,
}

impl Log {
    /// The requests `actor` had waiting for its client's tokens at `t`.
    pub fn backlog_at(&self, actor: &Actor, t: SimTime) -> u32 {
        let upto = self.backlogs.partition_point(|b| b.t <= t);
        self.backlogs[..upto].iter().rev().find(|b| b.actor == *actor).map_or(0, |b| b.waiting)
    }

    /// Since when `actor`'s client has had requests waiting without a break, at `t` (`None` if
    /// none waits then).
    pub fn backlog_since(&self, actor: &Actor, t: SimTime) -> Option<SimTime> {
        let upto = self.backlogs.partition_point(|b| b.t <= t);
        let mine = self.backlogs[..upto].iter().rev().filter(|b| b.actor == *actor);
        let mut since = None;
        for b in mine {
            if b.waiting == 0 {
                break;
            }
            since = Some(b.t);
        }
        since
    }
}
