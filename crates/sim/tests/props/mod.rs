//! What the simulation's property tests share (`sim_properties`, `settings`,
//! `patch_properties`): their configuration.

use proptest::test_runner::{Config, RngSeed};

/// A property test's configuration: reproducible, its cases generated from `seed` unless
/// `PROPTEST_RNG_SEED` is set; `cases` of them unless `PROPTEST_CASES` says how many.
pub(crate) fn config(cases: u32, seed: u64) -> Config {
    let base = Config::default();
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    let rng_seed = if std::env::var_os("PROPTEST_RNG_SEED").is_some() { base.rng_seed } else { RngSeed::Fixed(seed) };
    Config { cases, failure_persistence: None, rng_seed, ..base }
}
