//! client-go's token bucket (`util/flowcontrol/throttle.go`: `NewTokenBucketRateLimiter` over
//! `golang.org/x/time/rate`), the one rate limiter every simulated client and every zone's
//! tainting queue uses, and the client rates of the components (each a fact declared here once).
//!
//! A bucket holds up to `burst` tokens, starts full, and gains `qps` tokens a second. `TryAccept`
//! takes a token if there is one; `Wait` (what a client does before every request) takes one
//! anyway and sleeps until it is due, so requests wait their turn and are sent when their token
//! comes. A bucket at 0 qps is client-go's `fakeNeverRateLimiter`: it never accepts.

use std::time::Duration;

use super::time::SimTime;

/// A client's rate limit: `QPS` and `Burst` of its `rest.Config`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ClientRate {
    pub qps: f64,
    pub burst: u32,
}

/// Every kube-controller-manager controller's client: `--kube-api-qps` 20, `--kube-api-burst` 30
/// (`SetDefaults_KubeControllerManagerConfiguration`), each controller its own client
/// (`ClientBuilder.ClientOrDie(name)` builds a new clientset, so a new bucket, for each).
pub const KUBE_CONTROLLER_MANAGER: ClientRate = ClientRate { qps: 20.0, burst: 30 };
/// kube-scheduler's client: `clientConnection.qps` 50, `burst` 100 (its `SetDefaults_`), and its
/// Events' client is another one at the same rate (`createClients`).
pub const KUBE_SCHEDULER: ClientRate = ClientRate { qps: 50.0, burst: 100 };
/// The kubelet's main client: `kubeAPIQPS` 50, `kubeAPIBurst` 100. Its Events go through a client
/// of their own at `eventRecordQPS` 50, `eventBurst` 100; its heartbeat client (node status,
/// Lease) has no rate limit (`QPS = -1`).
pub const KUBELET: ClientRate = ClientRate { qps: 50.0, burst: 100 };

/// A token bucket (`rate.Limiter`, as `flowcontrol.tokenBucketRateLimiter` uses it).
#[derive(Clone, Debug, PartialEq)]
pub struct TokenBucket {
    qps: f64,
    burst: f64,
    /// The tokens at `at`: below zero while requests wait for tokens already given out.
    tokens: f64,
    at: SimTime,
}

impl TokenBucket {
    /// A full bucket from `now` on (`NewTokenBucketRateLimiter`).
    pub fn new(qps: f64, burst: u32, now: SimTime) -> TokenBucket {
        TokenBucket { qps, burst: burst as f64, tokens: burst as f64, at: now }
    }

    /// A client's bucket, full from the start.
    pub fn client(rate: ClientRate) -> TokenBucket {
        TokenBucket::new(rate.qps, rate.burst, SimTime::ZERO)
    }

    /// The bucket's rate (0 for one that never accepts).
    pub fn qps(&self) -> f64 {
        self.qps
    }

    /// Refills the bucket up to `now`.
    fn advance(&mut self, now: SimTime) {
        if self.qps > 0.0 {
            let dt = (now - self.at).as_secs_f64();
            self.tokens = (self.tokens + dt * self.qps).min(self.burst);
        }
        self.at = self.at.max(now);
    }

    /// `TryAccept`: takes a token if one is there now.
    pub fn try_accept(&mut self, now: SimTime) -> bool {
        if self.qps <= 0.0 {
            return false;
        }
        self.advance(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// `Wait`: takes a token, there or to come, and returns when the request it stands for is
    /// sent (now if a token was there).
    pub fn reserve(&mut self, now: SimTime) -> SimTime {
        self.advance(now);
        self.tokens -= 1.0;
        if self.tokens >= 0.0 {
            now
        } else {
            now + Duration::from_micros((-self.tokens / self.qps * 1e6).ceil() as u64)
        }
    }

    /// When a token is there for the next request (now if there is one), or `None` if never.
    pub fn ready_at(&self, now: SimTime) -> Option<SimTime> {
        // Rounded up to the clock's microsecond, as `reserve` rounds: a token due a fraction of a
        // microsecond away is due at the next one, never at `now` while the bucket still lacks
        // it (a wake-up at `now` would find no token again, for ever).
        (self.qps > 0.0).then(|| {
            let missing = (1.0 - self.tokens).max(0.0);
            (self.at + Duration::from_micros((missing / self.qps * 1e6).ceil() as u64)).max(now)
        })
    }

    /// Whether a token is there now.
    pub fn has_token(&self, now: SimTime) -> bool {
        self.ready_at(now).is_some_and(|t| t <= now)
    }
}

impl Default for TokenBucket {
    /// A kube-controller-manager controller's client (the controllers' buckets).
    fn default() -> TokenBucket {
        TokenBucket::client(KUBE_CONTROLLER_MANAGER)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_a_fraction_of_a_microsecond_away_is_due_at_the_next_one() {
        // At 3 a second a token takes 333,333.3 µs: at 333,333 µs the bucket lacks a third of a
        // microsecond's worth. It is due after `t`, and there then, so a pass that waits for it
        // never wakes at `t` again and again.
        let mut b = TokenBucket::new(3.0, 1, SimTime::ZERO);
        assert!(b.try_accept(SimTime::ZERO));
        let t = SimTime::from_micros(333_333);
        assert!(!b.try_accept(t));
        assert!(!b.has_token(t));
        let due = b.ready_at(t).expect("a rate");
        assert!(due > t, "{due:?}");
        assert!(b.try_accept(due));
    }

    #[test]
    fn a_client_bucket_starts_full_then_sends_at_its_rate() {
        let mut b = TokenBucket::client(KUBE_CONTROLLER_MANAGER);
        let t0 = SimTime::from_secs(10);
        let sent: Vec<SimTime> = (0..32).map(|_| b.reserve(t0)).collect();
        assert!(sent[..30].iter().all(|t| *t == t0), "the burst goes at once");
        assert_eq!(sent[30], t0 + Duration::from_millis(50));
        assert_eq!(sent[31], t0 + Duration::from_millis(100));
        assert_eq!(b.ready_at(t0), Some(t0 + Duration::from_millis(150)));
        assert!(!b.has_token(t0) && b.has_token(t0 + Duration::from_millis(150)));
    }

    #[test]
    fn a_burst_of_one_accepts_one_token_at_a_time_and_a_zero_rate_never() {
        let t0 = SimTime::from_secs(100);
        let mut b = TokenBucket::new(0.1, 1, t0);
        assert!(b.try_accept(t0), "a fresh bucket is full");
        assert!(!b.try_accept(t0 + Duration::from_secs(9)));
        assert_eq!(b.ready_at(t0 + Duration::from_secs(9)), Some(t0 + Duration::from_secs(10)));
        assert!(b.try_accept(t0 + Duration::from_secs(10)));
        let mut never = TokenBucket::new(0.0, 1, t0);
        assert!(!never.try_accept(t0) && never.ready_at(t0).is_none());
    }
}
