//! Numbers the way Go formats them on kubectl's path.
//!
//! kubectl decodes what the API server sends into unstructured maps
//! (`k8s.io/apimachinery/pkg/util/json`): a number that fits an `int64` stays an integer,
//! anything else becomes a `float64`. `-o json` then prints floats with `encoding/json`'s rules;
//! `-o yaml` reads that JSON back with go-yaml (which picks int, uint or float again) and prints
//! floats with `strconv.FormatFloat(f, 'g', -1, 64)`.

use serde_json::Number;

/// The number as kubectl's JSON carries it.
pub(crate) fn json_number(n: &Number) -> String {
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    // u64 beyond i64 (as_u64), or a float: both are float64 to kubectl.
    json_float(n.as_f64().unwrap_or_default())
}

/// The number as kubectl's YAML prints it: the JSON text resolved by go-yaml, then formatted as
/// an int, a uint or a float.
pub(crate) fn yaml_number(n: &Number) -> String {
    let text = json_number(n);
    if let Ok(i) = text.parse::<i64>() {
        return i.to_string();
    }
    if let Ok(u) = text.parse::<u64>() {
        return u.to_string();
    }
    // The float the text was written from (shortest round-trip digits, so the same value go-yaml
    // reads back), without parsing decimal text as a float.
    format_float_g(n.as_f64().unwrap_or_default())
}

/// `encoding/json`'s float64 format: `'f'` with the shortest precision, or `'e'` below 1e-6 and
/// from 1e21 on (with `e-07` shortened to `e-7`).
///
/// In the page no object carries a float (every number the simulation writes is an integer), so
/// there the exponent forms are left out: Rust's shortest decimal is printed as is.
#[cfg(target_arch = "wasm32")]
pub(crate) fn json_float(f: f64) -> String {
    if f.is_finite() { format!("{f}") } else { "null".into() }
}

/// `strconv.FormatFloat(f, 'g', -1, 64)`, reduced in the page as [`json_float`] is.
#[cfg(target_arch = "wasm32")]
pub(crate) fn format_float_g(f: f64) -> String {
    json_float(f)
}

/// `encoding/json`'s float64 format: `'f'` with the shortest precision, or `'e'` below 1e-6 and
/// from 1e21 on (with `e-07` shortened to `e-7`).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn json_float(f: f64) -> String {
    if !f.is_finite() {
        // JSON has no NaN or infinities (serde_json::Value cannot hold them either).
        return "null".into();
    }
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        let (mantissa, exp) = shortest_e(f);
        let sign = if exp < 0 { '-' } else { '+' };
        let e = exp.unsigned_abs();
        // Go writes at least two exponent digits, then JSON drops a leading zero of a negative one.
        if exp < 0 && e < 10 { format!("{mantissa}e-{e}") } else { format!("{mantissa}e{sign}{e:02}") }
    } else {
        // Rust's Display is the shortest round-tripping decimal without an exponent, as Go's 'f', -1.
        format!("{f}")
    }
}

/// `strconv.FormatFloat(f, 'g', -1, 64)`: `%e` when the exponent is below -4 or at least 6
/// (the shortest-precision rule), else `%f`; exponents have at least two digits.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn format_float_g(f: f64) -> String {
    if f.is_nan() {
        return ".nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf".into() } else { "-.inf".into() };
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0".into() } else { "0".into() };
    }
    let (mantissa, exp) = shortest_e(f);
    if !(-4..6).contains(&exp) {
        let sign = if exp < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exp.unsigned_abs())
    } else {
        format!("{f}")
    }
}

/// The shortest round-tripping digits of `f` as `d.ddd` (with sign) and its decimal exponent.
#[cfg(not(target_arch = "wasm32"))]
fn shortest_e(f: f64) -> (String, i32) {
    let s = format!("{f:e}");
    match s.split_once('e') {
        Some((m, e)) => (m.to_string(), e.parse().unwrap_or(0)),
        None => (s, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_format_like_go() {
        assert_eq!(json_float(1.5), "1.5");
        assert_eq!(json_float(3.0), "3");
        assert_eq!(json_float(1e21), "1e+21");
        assert_eq!(json_float(1.5e-7), "1.5e-7");
        assert_eq!(json_float(1e-10), "1e-10");
        assert_eq!(json_float(12345678901234567890.0), "12345678901234567000");
        assert_eq!(format_float_g(1.5), "1.5");
        assert_eq!(format_float_g(1234567.5), "1.2345675e+06");
        assert_eq!(format_float_g(100000.5), "100000.5");
        assert_eq!(format_float_g(0.0001), "0.0001");
        assert_eq!(format_float_g(0.00001), "1e-05");
        assert_eq!(format_float_g(1e21), "1e+21");
    }

    #[test]
    fn numbers_take_kubectls_path() {
        let n = |s: &str| serde_json::from_str::<Number>(s).unwrap();
        assert_eq!(yaml_number(&n("110")), "110");
        assert_eq!(yaml_number(&n("-5")), "-5");
        assert_eq!(yaml_number(&n("2.0")), "2");
        assert_eq!(yaml_number(&n("12345678901234567890")), "12345678901234567000");
        assert_eq!(json_number(&n("12345678901234567890")), "12345678901234567000");
        assert_eq!(yaml_number(&n("1e21")), "1e+21");
        assert_eq!(yaml_number(&n("0.000001")), "1e-06");
        assert_eq!(json_number(&n("0.000001")), "0.000001");
    }
}
